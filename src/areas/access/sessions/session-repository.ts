import type { Db } from '../../../db/database.js';
import type { SignInMethod } from '../accounts/account-repository.js';

/** A session as its account sees it in the list (never its token). */
export interface SessionRecord {
  id: string;
  method: SignInMethod;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  userAgent: string | null;
}

/**
 * The account's sessions that have not ended (past their end or idle since `idleSince`), oldest
 * first: the person's own, and the support sessions that act as one of its users.
 */
export async function listSessions(db: Db, accountId: string, now: string, idleSince: string): Promise<SessionRecord[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'method', 'created_at', 'last_used_at', 'expires_at', 'user_agent'])
    .where('account_id', '=', accountId)
    .where('expires_at', '>', now)
    .where((eb) => eb(eb.fn.coalesce('last_used_at', 'created_at'), '>', idleSince))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    method: row.method as SignInMethod,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at ?? row.created_at,
    expiresAt: row.expires_at,
    userAgent: row.user_agent,
  }));
}

/** Ends one of the account's sessions; false when it has none of that id. */
export async function deleteSession(db: Db, accountId: string, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom('sessions').where('id', '=', sessionId).where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends every session of the account but one (a password change keeps the session that made it). */
export async function deleteOtherSessions(db: Db, accountId: string, keepSessionId: string | undefined): Promise<void> {
  let query = db.deleteFrom('sessions').where('account_id', '=', accountId);
  if (keepSessionId !== undefined) query = query.where('id', '<>', keepSessionId);
  await query.execute();
}

export async function touchSession(db: Db, sessionId: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', sessionId).execute();
}

/** How and when a session began (PUT /auth/password trusts a session a link began moments ago). */
export async function sessionOrigin(db: Db, sessionId: string): Promise<{ method: SignInMethod; createdAt: string } | undefined> {
  const row = await db.selectFrom('sessions').select(['method', 'created_at']).where('id', '=', sessionId).executeTakeFirst();
  return row && { method: row.method as SignInMethod, createdAt: row.created_at };
}
