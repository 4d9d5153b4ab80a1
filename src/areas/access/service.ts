import type { Db } from '../../db/database.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { cleanName } from '../../lib/names.js';
import { API_KEY_PREFIX, newToken } from '../../lib/tokens.js';
import { deleteApiKey, insertApiKey, listApiKeys, type ApiKeyRecord } from './repository.js';

/** The user a key is minted for: the caller of POST /api-keys, or a user the CLI names. */
export type KeyHolder = Pick<Actor, 'organizationId' | 'userId'>;

/** Who is calling (GET /auth): the workspace's domain, the caller's email and the bearer token in use. */
export function authSnapshot(actor: Actor, workspace: Workspace): { domain: string; email: string; token: string } {
  return { domain: workspace.domain, email: actor.email, token: actor.token };
}

/** `api-keys:manage` reaches only the caller's own keys, for every role: listings and revocations are the holder's. */
export async function ownApiKeys(db: Db, actor: Actor): Promise<ApiKeyRecord[]> {
  return listApiKeys(db, actor.userId);
}

/**
 * Mints an API key for a user: the one way a key is made (POST /api-keys, `timetrack apikey create`,
 * a new workspace's first key). The answer holds the secret, once; only its digest is stored.
 */
export async function createApiKey(db: Db, holder: KeyHolder, name: string): Promise<ApiKeyRecord & { key: string }> {
  const key = newToken(API_KEY_PREFIX);
  const record = await insertApiKey(db, {
    organizationId: holder.organizationId,
    userId: holder.userId,
    name: cleanName(name, '/body/name'),
    token: key,
  });
  return { ...record, key };
}

/** Another user's key is as unknown as a key that does not exist (404). */
export async function revokeApiKey(db: Db, actor: Actor, apiKeyId: string): Promise<void> {
  if (!(await deleteApiKey(db, actor.userId, apiKeyId))) throw notFound('API key');
}
