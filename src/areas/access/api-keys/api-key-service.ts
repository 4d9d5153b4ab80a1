import type { Db, Trx } from '../../../db/database.js';
import { lockRowForWrite } from '../../../db/locks.js';
import type { Actor } from '../../../domain/actor.js';
import { notFound } from '../../../domain/errors.js';
import { cleanName } from '../../../lib/names.js';
import { API_KEY_PREFIX, newToken } from '../../../lib/tokens.js';
import { countApiKeys, deleteApiKey, findUserByApiKey, insertApiKey, listApiKeys, touchApiKey, type ApiKeyHolder, type ApiKeyRecord } from './api-key-repository.js';
import { assertRoomForApiKey } from './api-key-rules.js';

/** The user a key is minted for: the caller of POST /api-keys, or a user the CLI names. */
export type KeyHolder = Pick<Actor, 'organizationId' | 'userId'>;

/** `api-keys:manage` reaches only the caller's own keys, for every role: listings and revocations are the holder's. */
export async function ownApiKeys(db: Db, actor: Actor): Promise<ApiKeyRecord[]> {
  return listApiKeys(db, actor.userId);
}

/** Mints an API key for a user (POST /api-keys, `timetrack apikey create`): see mintApiKey. */
export async function createApiKey(db: Db, holder: KeyHolder, name: string): Promise<ApiKeyRecord & { key: string }> {
  return db.transaction().execute((trx) => mintApiKey(trx, holder, name));
}

/**
 * Mints an API key for a user: the one way a key is made (createApiKey, a new workspace's first key).
 * A user holds at most API_KEYS_PER_USER keys (409 beyond); the user's row is locked first, so
 * concurrent creations are counted one after another and cannot pass the cap together. The answer
 * holds the secret, once; only its digest is stored.
 */
export async function mintApiKey(trx: Trx, holder: KeyHolder, name: string): Promise<ApiKeyRecord & { key: string }> {
  const cleaned = cleanName(name, '/body/name');
  // A user deleted meanwhile has no row to lock: the insert then fails its foreign key, which the
  // error handler answers like every write of a user deleted meanwhile (docs/rules.md §3).
  await lockRowForWrite(trx, 'users', holder.userId);
  assertRoomForApiKey(await countApiKeys(trx, holder.userId));
  const key = newToken(API_KEY_PREFIX);
  const record = await insertApiKey(trx, {
    organizationId: holder.organizationId,
    userId: holder.userId,
    name: cleaned,
    token: key,
  });
  return { ...record, key };
}

/** Another user's key is as unknown as a key that does not exist (404). */
export async function revokeApiKey(db: Db, actor: Actor, apiKeyId: string): Promise<void> {
  if (!(await deleteApiKey(db, actor.userId, apiKeyId))) throw notFound('API key');
}

/** Who an API key of this workspace stands for, found by the key's digest (authentication asks, docs/rules.md §2 Tokens); nobody for an unknown or revoked key. */
export function holderOfApiKey(db: Db, organizationId: string, tokenHash: string): Promise<ApiKeyHolder | undefined> {
  return findUserByApiKey(db, organizationId, tokenHash);
}

/** Records that a key was used (GET /api-keys shows it, kept to the minute by the caller). */
export function noteApiKeyUse(db: Db, apiKeyId: string, at: string): Promise<void> {
  return touchApiKey(db, apiKeyId, at);
}
