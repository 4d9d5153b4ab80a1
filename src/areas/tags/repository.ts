import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
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

export async function deleteTag(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('tags').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function toTag(row: TagRow): Tag {
  return { id: row.id, name: row.name, archived: fromDbBool(row.archived) };
}
