import type { Db } from '../../db/database.js';
import { fromDbBool, fromJson, toDbBool } from '../../db/values.js';

/** A user a request's mail may go to, or name: their address, name and preferences document. */
export interface RequestPerson {
  id: string;
  name: string | null;
  email: string;
  archived: boolean;
  preferences: Record<string, unknown>;
}

function peopleQuery(db: Db, organizationId: string) {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .leftJoin('user_preferences', 'user_preferences.user_id', 'users.id')
    .select(['users.id', 'users.name', 'users.archived', 'accounts.email', 'user_preferences.document'])
    .where('users.organization_id', '=', organizationId);
}

function toPerson(row: { id: string; name: string | null; archived: boolean | number; email: string; document: string | null }): RequestPerson {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    archived: fromDbBool(row.archived),
    preferences: fromJson<Record<string, unknown>>(row.document ?? null) ?? {},
  };
}

/** The workspace's unarchived administrators (those who resolve requests), oldest first. */
export async function unarchivedAdministrators(db: Db, organizationId: string): Promise<RequestPerson[]> {
  const rows = await peopleQuery(db, organizationId)
    .where('users.role', '=', 'Administrator')
    .where('users.archived', '=', toDbBool(false))
    .orderBy('users.created_at')
    .orderBy('users.id')
    .execute();
  return rows.map(toPerson);
}

/** One user of the workspace, archived or not; undefined when there is none. */
export async function workspacePerson(db: Db, organizationId: string, userId: string): Promise<RequestPerson | undefined> {
  const row = await peopleQuery(db, organizationId).where('users.id', '=', userId).executeTakeFirst();
  return row && toPerson(row);
}

/** The name of a project of the workspace; undefined when it is gone. */
export async function projectNameOf(db: Db, organizationId: string, projectId: string): Promise<string | undefined> {
  const row = await db.selectFrom('projects').select('name').where('organization_id', '=', organizationId).where('id', '=', projectId).executeTakeFirst();
  return row?.name;
}
