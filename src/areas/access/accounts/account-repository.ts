import type { Db } from '../../../db/database.js';
import { toDbBool } from '../../../db/values.js';
import { normalizeEmail } from '../../../lib/email.js';
import { newId } from '../../../lib/ids.js';
import { nowIso } from '../../../lib/time.js';

/** Finds the account of an email (case-insensitive) or creates it. */
export async function findOrCreateAccount(db: Db, email: string): Promise<string> {
  const normalized = normalizeEmail(email);
  const existing = await db.selectFrom('accounts').select('id').where('email', '=', normalized).executeTakeFirst();
  if (existing) return existing.id;
  const id = newId();
  await db
    .insertInto('accounts')
    .values({ id, email: normalized, created_at: nowIso(), password_hash: null, password_changed_at: null })
    .execute();
  return id;
}

/**
 * The unarchived user of an email (case-insensitive) in a workspace, with the account's password
 * digest: who a link or a password may sign in there.
 */
export async function findActiveUserByEmail(
  db: Db,
  organizationId: string,
  email: string,
): Promise<{ userId: string; accountId: string; passwordHash: string | null; workspaceName: string } | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['users.id as user_id', 'users.account_id', 'accounts.password_hash', 'organizations.name as workspace_name'])
    .where('users.organization_id', '=', organizationId)
    .where('accounts.email', '=', normalizeEmail(email))
    .where('users.archived', '=', toDbBool(false))
    .executeTakeFirst();
  return row && { userId: row.user_id, accountId: row.account_id, passwordHash: row.password_hash, workspaceName: row.workspace_name };
}

/** The workspaces where an email has an unarchived user, oldest first (read here: the workspace area's face imports this one). */
export async function workspacesOfEmail(db: Db, email: string): Promise<{ domain: string; name: string }[]> {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['organizations.domain', 'organizations.name'])
    .where('accounts.email', '=', normalizeEmail(email))
    .where('users.archived', '=', toDbBool(false))
    .orderBy('organizations.created_at')
    .orderBy('organizations.id')
    .execute();
}
