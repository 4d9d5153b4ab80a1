import type { FastifyInstance } from 'fastify';
import type { TestUser, TestWorkspace } from '../harness.js';
import {
  API_KEY_PREFIX,
  createWorkspace,
  findOrCreateAccount,
  insertApiKey,
  insertSession,
  createUser,
  newToken,
  SESSION_TOKEN_PREFIX,
  toDbBool,
  type Role,
} from '../src.js';

/**
 * Workspaces, users and sessions. The API makes none of them quickly (a workspace comes from the
 * CLI, a user from an invitation that writes mail and has no key), so these use the functions the
 * CLI and sign-in use. They need only the app: the harness, or the fuzzer's client.
 */
export interface HasApp {
  app: FastifyInstance;
}

let counter = 0;
/** A name no other call in this process has had (with the pid and time: unique across test files too). */
export const unique = (prefix: string) => `${prefix}${process.pid}x${++counter}x${Date.now().toString(36)}`;

/** A workspace with its first administrator and the administrator's API key, created as the CLI does. */
export async function workspace(
  h: HasApp,
  options: { domain?: string; name?: string; adminName?: string } = {},
): Promise<TestWorkspace> {
  const domain = options.domain ?? unique('ws');
  const adminEmail = `admin@${domain}.example.com`;
  const created = await createWorkspace(h.app.db, {
    domain,
    name: options.name ?? `Workspace ${domain}`,
    adminEmail,
    adminName: options.adminName ?? 'Admin',
  });
  return {
    domain,
    host: `${domain}.${h.app.config.baseDomain}`,
    organizationId: created.organizationId,
    admin: { userId: created.userId, email: adminEmail, token: created.apiKey },
  };
}

/**
 * A user of a workspace with an API key: role User unless told, archived on demand. An email
 * already known reuses its account, as an invitation does.
 */
export async function user(
  h: HasApp,
  ws: Pick<TestWorkspace, 'organizationId'>,
  options: { role?: Role; email?: string; name?: string; archived?: boolean } = {},
): Promise<TestUser> {
  const db = h.app.db;
  const email = options.email ?? `${unique('user')}@example.com`;
  const accountId = await findOrCreateAccount(db, email);
  const userId = await createUser(db, {
    organizationId: ws.organizationId,
    accountId,
    role: options.role ?? 'User',
    name: options.name ?? 'Test User',
  });
  if (options.archived) {
    await db.updateTable('users').set({ archived: toDbBool(true) }).where('id', '=', userId).execute();
  }
  const token = newToken(API_KEY_PREFIX);
  await insertApiKey(db, { organizationId: ws.organizationId, userId, name: 'test', token });
  return { userId, email, token };
}

/**
 * A session token (account-wide, as sign-in makes one) of the account behind a user, valid for an
 * hour unless told; `actingIn` makes it a session acting as that user in that workspace only.
 */
export async function session(
  h: HasApp,
  userId: string,
  options: { expiresInMs?: number; actingIn?: Pick<TestWorkspace, 'organizationId'> } = {},
): Promise<string> {
  const { account_id } = await h.app.db.selectFrom('users').select('account_id').where('id', '=', userId).executeTakeFirstOrThrow();
  const token = newToken(SESSION_TOKEN_PREFIX);
  await insertSession(h.app.db, {
    accountId: account_id,
    token,
    expiresAt: new Date(Date.now() + (options.expiresInMs ?? 3_600_000)).toISOString(),
    ...(options.actingIn ? { organizationId: options.actingIn.organizationId, userId } : {}),
  });
  return token;
}
