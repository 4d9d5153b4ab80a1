import type { Db } from '../../../db/database.js';
import { fromDbBool } from '../../../db/values.js';
import { newId } from '../../../lib/ids.js';
import { nowIso } from '../../../lib/time.js';
import { hashToken } from '../../../lib/tokens.js';
import { holderOf, userColumns, type TokenHolder } from '../token-holder.js';
import type { SignInMethod } from './session-rules.js';


/** Who a session stands for, and which session it is. */
export type SessionHolder = TokenHolder & { sessionId: string; lastUsedAt: string };

/**
 * The user a session token stands for in one workspace: the session's own user when it acts as one
 * (a support session), otherwise the account's user in that workspace. Sessions past their end, or
 * unused since `idleSince` (docs/rules.md §7 Sessions), find nobody. The session is found by its
 * token's SHA-256 digest (hashToken).
 */
export async function findUserBySession(
  db: Db,
  organizationId: string,
  tokenHash: string,
  idleSince: string,
): Promise<SessionHolder | undefined> {
  const session = await db
    .selectFrom('sessions')
    .select(['id', 'account_id', 'organization_id', 'user_id', 'expires_at', 'created_at', 'last_used_at'])
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', nowIso())
    .where((eb) => eb(eb.fn.coalesce('last_used_at', 'created_at'), '>', idleSince))
    .executeTakeFirst();
  if (!session) return undefined;
  if (session.organization_id !== null && session.organization_id !== organizationId) return undefined;
  let query = db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(userColumns)
    .where('users.organization_id', '=', organizationId);
  query = session.user_id !== null ? query.where('users.id', '=', session.user_id) : query.where('users.account_id', '=', session.account_id);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const holder = { expiresAt: session.expires_at, sessionId: session.id, lastUsedAt: session.last_used_at ?? session.created_at };
  if (session.user_id !== null) return { ...holderOf(row, 'support'), ...holder };
  const mustEnrolTwoFactor = await lacksRequiredTwoFactor(db, organizationId, session.account_id);
  return { ...holderOf(row, 'session'), ...holder, ...(mustEnrolTwoFactor ? { mustEnrolTwoFactor } : {}) };
}

/** Whether the workspace requires 2FA (docs/rules.md §8 Two-factor codes) and the account has none confirmed. */
async function lacksRequiredTwoFactor(db: Db, organizationId: string, accountId: string): Promise<boolean> {
  const settings = await db
    .selectFrom('sign_in_settings')
    .select('two_factor_required')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!settings || !fromDbBool(settings.two_factor_required)) return false;
  const enrolled = await db
    .selectFrom('two_factor_secrets')
    .select('account_id')
    .where('account_id', '=', accountId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return enrolled === undefined;
}

export async function insertSession(
  db: Db,
  session: {
    accountId: string;
    token: string;
    expiresAt: string;
    organizationId?: string;
    userId?: string;
    method?: SignInMethod;
    userAgent?: string | null;
  },
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto('sessions')
    .values({
      id,
      account_id: session.accountId,
      token_hash: hashToken(session.token),
      organization_id: session.organizationId ?? null,
      user_id: session.userId ?? null,
      expires_at: session.expiresAt,
      created_at: now,
      method: session.method ?? (session.userId !== undefined ? 'support' : 'link'),
      user_agent: session.userAgent ?? null,
      last_used_at: now,
    })
    .execute();
  return id;
}

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
