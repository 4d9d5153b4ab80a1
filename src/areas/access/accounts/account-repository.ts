import type { Db } from '../../../db/database.js';
import { fromDbBool, toDbBool } from '../../../db/values.js';
import type { Role, TokenKind } from '../../../domain/actor.js';
import { normalizeEmail } from '../../../lib/email.js';
import { newId } from '../../../lib/ids.js';
import { nowIso } from '../../../lib/time.js';
import { displayPrefix, hashToken } from '../../../lib/tokens.js';

/** The user a bearer token stands for in one workspace, and what kind of token it is. */
export interface TokenHolder {
  userId: string;
  accountId: string;
  email: string;
  role: Role;
  archived: boolean;
  tokenKind: TokenKind;
  /** A session's end (ISO instant): whoever keeps the holder must not keep it longer. API keys do not expire. */
  expiresAt?: string;
  /** A person's session in a workspace that requires 2FA, of an account without it: they may only enrol. */
  mustEnrolTwoFactor?: boolean;
}

interface TokenHolderRow {
  user_id: string;
  account_id: string;
  email: string;
  role: string;
  archived: boolean | number;
}

const userColumns = [
  'users.id as user_id',
  'users.account_id',
  'accounts.email',
  'users.role',
  'users.archived',
] as const;

const holderOf = (row: TokenHolderRow, tokenKind: TokenKind): TokenHolder => ({
  userId: row.user_id,
  accountId: row.account_id,
  email: row.email,
  role: row.role as Role,
  archived: fromDbBool(row.archived),
  tokenKind,
});

/** The user of an API key, found by the key's SHA-256 digest (hashToken). */
export async function findUserByApiKey(
  db: Db,
  organizationId: string,
  tokenHash: string,
): Promise<(TokenHolder & { apiKeyId: string; lastUsedAt: string | null }) | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select([...userColumns, 'api_keys.id as api_key_id', 'api_keys.last_used_at'])
    .where('api_keys.token_hash', '=', tokenHash)
    .where('api_keys.organization_id', '=', organizationId)
    .executeTakeFirst();
  return row && { ...holderOf(row, 'apiKey'), apiKeyId: row.api_key_id, lastUsedAt: row.last_used_at };
}

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
): Promise<(TokenHolder & { sessionId: string; lastUsedAt: string }) | undefined> {
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

export async function touchApiKey(db: Db, apiKeyId: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', apiKeyId).execute();
}

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

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Stores a new key's digest; the key itself is returned to the caller once and never kept. */
export async function insertApiKey(
  db: Db,
  key: { organizationId: string; userId: string; name: string; token: string },
): Promise<ApiKeyRecord> {
  const record: ApiKeyRecord = {
    id: newId(),
    name: key.name,
    prefix: displayPrefix(key.token),
    createdAt: nowIso(),
    lastUsedAt: null,
  };
  await db
    .insertInto('api_keys')
    .values({
      id: record.id,
      organization_id: key.organizationId,
      user_id: key.userId,
      name: record.name,
      prefix: record.prefix,
      token_hash: hashToken(key.token),
      created_at: record.createdAt,
      last_used_at: null,
    })
    .execute();
  return record;
}

/** How many API keys the user holds (inside a transaction that locked the user, an exact count). */
export async function countApiKeys(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('held'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.held);
}

export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyRecord[]> {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'prefix', 'created_at as createdAt', 'last_used_at as lastUsedAt'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function deleteApiKey(db: Db, userId: string, apiKeyId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('api_keys')
    .where('id', '=', apiKeyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** How a session began (sessions.method): shown in the list of sessions, and asked by rules that trust a fresh link. */
export type SignInMethod = 'support' | 'link' | 'invitation' | 'password-reset' | 'password' | 'oidc';

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

/* One-time sign-in tokens: stored by digest, used once, within their lifetime, at their workspace only. */

/** What redeeming a one-time token does (one_time_tokens.purpose). */
export type OneTimePurpose = 'support' | 'sign-in' | 'invitation' | 'password-reset';

/** How many links of these purposes the user was mailed since an instant and has not used. */
export async function countUnusedLinks(db: Db, userId: string, purposes: OneTimePurpose[], since: string): Promise<number> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('created_at', '>', since)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertOneTimeToken(
  db: Db,
  token: { organizationId: string; userId: string; token: string; expiresAt: string; purpose: OneTimePurpose },
): Promise<void> {
  await db
    .insertInto('one_time_tokens')
    .values({
      id: newId(),
      organization_id: token.organizationId,
      user_id: token.userId,
      token_hash: hashToken(token.token),
      expires_at: token.expiresAt,
      used_at: null,
      created_at: nowIso(),
      purpose: token.purpose,
    })
    .execute();
}

/**
 * Uses a one-time token of this workspace: one conditional UPDATE (unused, unexpired, this
 * workspace) that only one redemption can win, in either store. Answers the user it acts as, with
 * their account, email and archived flag, when this caller won it.
 */
export async function redeemOneTimeToken(
  db: Db,
  organizationId: string,
  token: string,
  now: string,
): Promise<{ userId: string; accountId: string; email: string; archived: boolean; purpose: OneTimePurpose } | undefined> {
  const tokenHash = hashToken(token);
  const result = await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('organization_id', '=', organizationId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const row = await db
    .selectFrom('one_time_tokens')
    .innerJoin('users', 'users.id', 'one_time_tokens.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id as user_id', 'users.account_id', 'users.archived', 'accounts.email', 'one_time_tokens.purpose'])
    .where('one_time_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      accountId: row.account_id,
      email: row.email,
      archived: fromDbBool(row.archived),
      purpose: row.purpose as OneTimePurpose,
    }
  );
}

/** The purpose of an unused, unexpired one-time token of this workspace, without using it (the link page asks it). */
export async function peekOneTimeToken(db: Db, organizationId: string, token: string, now: string): Promise<OneTimePurpose | undefined> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select('purpose')
    .where('token_hash', '=', hashToken(token))
    .where('organization_id', '=', organizationId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.purpose as OneTimePurpose | undefined;
}

/**
 * The unarchived user of an email (case-insensitive) in a workspace, with the account's password
 * digest: who a link or a password may sign in there.
 */
export async function findActiveUserByEmail(
  db: Db,
  organizationId: string,
  email: string,
): Promise<{ userId: string; accountId: string; passwordHash: string | null } | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id as user_id', 'users.account_id', 'accounts.password_hash'])
    .where('users.organization_id', '=', organizationId)
    .where('accounts.email', '=', normalizeEmail(email))
    .where('users.archived', '=', toDbBool(false))
    .executeTakeFirst();
  return row && { userId: row.user_id, accountId: row.account_id, passwordHash: row.password_hash };
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

export async function accountPasswordHash(db: Db, accountId: string): Promise<string | null> {
  const row = await db.selectFrom('accounts').select('password_hash').where('id', '=', accountId).executeTakeFirst();
  return row?.password_hash ?? null;
}

export async function setAccountPassword(db: Db, accountId: string, passwordHash: string, at: string): Promise<void> {
  await db.updateTable('accounts').set({ password_hash: passwordHash, password_changed_at: at }).where('id', '=', accountId).execute();
}
