import { sql, type Selectable, type Updateable } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import type { TagsTable } from '../../db/tables/tags.js';
import { fromDbBool, toDbBool } from '../../db/values.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { tagNameKey } from './rules.js';
import type { Tag } from './schemas.js';

type TagRow = Pick<Selectable<TagsTable>, 'id' | 'name' | 'archived'>;

const COLUMNS = ['id', 'name', 'archived'] as const;

export async function listTags(db: Db, organizationId: string): Promise<Tag[]> {
  const rows = await db
    .selectFrom('tags')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toTag);
}

export async function findTag(db: Db, organizationId: string, id: string): Promise<Tag | undefined> {
  const row = await db
    .selectFrom('tags')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row && toTag(row);
}

export async function insertTag(db: Db, organizationId: string, name: string): Promise<Tag> {
  const now = nowIso();
  const id = newId();
  await db
    .insertInto('tags')
    .values({ id, organization_id: organizationId, name, name_key: tagNameKey(name), archived: toDbBool(false), created_at: now, updated_at: now })
    .execute();
  return { id, name, archived: false };
}

export interface TagChanges {
  name?: string;
  archived?: boolean;
}

/** Applies the given changes; false when the workspace has no such tag. */
export async function updateTag(db: Db, organizationId: string, id: string, changes: TagChanges): Promise<boolean> {
  const set: Updateable<TagsTable> = { updated_at: nowIso() };
  if (changes.name !== undefined) {
    set.name = changes.name;
    set.name_key = tagNameKey(changes.name);
  }
  if (changes.archived !== undefined) set.archived = toDbBool(changes.archived);
  const result = await db
    .updateTable('tags')
    .set(set)
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The workspace's tags among these ids, for an activity about to carry them: on PostgreSQL each row
 * is held with a key-share lock (the one the links' foreign key takes), so a tag cannot be deleted
 * between this check and the write.
 */
export async function selectTagsForBooking(db: Db, organizationId: string, ids: readonly string[]): Promise<Tag[]> {
  if (ids.length === 0) return [];
  const query = db.selectFrom('tags').select(COLUMNS).where('id', 'in', ids).where('organization_id', '=', organizationId);
  const rows = await (dialectOf(db) === 'postgres' ? query.forKeyShare() : query).execute();
  return rows.map(toTag);
}

/**
 * Deletes the tag and takes it off every activity carrying it (docs/rules.md §6 Tags): first out of
 * each one's `tag_ids` text (the ids are UUIDs, so the quoted id matches only itself), then the
 * deletion takes the links (ON DELETE CASCADE). On PostgreSQL the tag's row is locked first: a write
 * that has just checked the tag holds a key share of it, and this waits for that write to commit, so
 * its link is among those read here; a later write finds no tag (422).
 */
export async function deleteTag(db: Db, organizationId: string, id: string): Promise<boolean> {
  const find = db.selectFrom('tags').select('id').where('id', '=', id).where('organization_id', '=', organizationId);
  if (!(await (dialectOf(db) === 'postgres' ? find.forUpdate() : find).executeTakeFirst())) return false;
  const quoted = JSON.stringify(id);
  await db
    .updateTable('activities')
    .set({ tag_ids: sql<string>`replace(replace(replace(tag_ids, ${`,${quoted}`}, ''), ${`${quoted},`}, ''), ${quoted}, '')` })
    .where('id', 'in', (links) => links.selectFrom('activity_tags').select('activity_id').where('tag_id', '=', id))
    .where('organization_id', '=', organizationId)
    .execute();
  const result = await db.deleteFrom('tags').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function toTag(row: TagRow): Tag {
  return { id: row.id, name: row.name, archived: fromDbBool(row.archived) };
}

/** Tags an import brings, with the ids its plan gave them (docs/rules.md §6 Imports). */
export async function insertTagRows(db: Db, organizationId: string, tags: ReadonlyArray<{ id: string; name: string }>): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < tags.length; i += 500) {
    await db
      .insertInto('tags')
      .values(
        tags.slice(i, i + 500).map((tag) => ({
          id: tag.id,
          organization_id: organizationId,
          name: tag.name,
          name_key: tagNameKey(tag.name),
          archived: toDbBool(false),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}
