import type { Db, Trx } from '../../db/database.js';
import { withConstraintProblems } from '../../db/errors.js';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { recordChange } from '../changes/index.js';
import { deleteTag, findTag, insertTag, insertTagRows, listTags, selectTagsForBooking, updateTag, type TagChanges } from './repository.js';
import { cleanTagName, tagNameTaken } from './rules.js';
import type { Tag, TagCreate, TagUpdate } from './schemas.js';

/** Every tag of the workspace: every user reads them all (docs/rules.md §6 Tags). */
export async function workspaceTags(db: Db, actor: Actor): Promise<Tag[]> {
  return listTags(db, actor.organizationId);
}

/** A new, unarchived tag; any user of the workspace may create one. A name taken regardless of case is 409. */
export async function createTag(db: Db, actor: Actor, body: TagCreate): Promise<Tag> {
  const name = cleanTagName(body.name);
  const { organizationId } = actor;
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        const created = await insertTag(trx, organizationId, name);
        await recordChange(trx, { organizationId, type: 'tag.created', actorId: actor.userId, data: created });
        return created;
      }),
    // tags_name_unique decides, also between two creations of one name at the same moment.
    { unique: () => tagNameTaken(name) },
  );
}

/** Renaming and archiving (administrators: the route's permission); fields left out keep their values. */
export async function changeTag(db: Db, actor: Actor, tagId: string, body: TagUpdate): Promise<Tag> {
  const changes: TagChanges = {};
  if (body.name !== undefined) changes.name = cleanTagName(body.name);
  if (body.archived !== undefined) changes.archived = body.archived;
  const { organizationId } = actor;
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        if (!(await updateTag(trx, organizationId, tagId, changes))) throw notFound('tag');
        const updated = (await findTag(trx, organizationId, tagId))!;
        await recordChange(trx, { organizationId, type: 'tag.updated', actorId: actor.userId, data: updated });
        return updated;
      }),
    { unique: () => tagNameTaken(changes.name!) },
  );
}

/** The workspace's tags among these ids, held until the booking's transaction ends (see selectTagsForBooking). */
export const findTagsForBooking = (db: Db, organizationId: string, ids: readonly string[]): Promise<Tag[]> =>
  selectTagsForBooking(db, organizationId, ids);

/** Deletes the tag for good (administrators: the route's permission); docs/rules.md §6 Tags. */
export async function removeTag(db: Db, actor: Actor, tagId: string): Promise<void> {
  const { organizationId } = actor;
  await db.transaction().execute(async (trx) => {
    if (!(await deleteTag(trx, organizationId, tagId))) throw notFound('tag');
    await recordChange(trx, { organizationId, type: 'tag.deleted', actorId: actor.userId, data: { id: tagId } });
  });
}

/** Adds the tags an import brings, in the import's transaction (docs/rules.md §6 Imports). */
export const addImportedTags = (trx: Trx, organizationId: string, tags: ReadonlyArray<{ id: string; name: string }>): Promise<void> =>
  insertTagRows(trx, organizationId, tags);
