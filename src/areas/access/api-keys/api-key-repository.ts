import type { Db } from '../../../db/database.js';
import { newId } from '../../../lib/ids.js';
import { nowIso } from '../../../lib/time.js';
import { displayPrefix, hashToken } from '../../../lib/tokens.js';
import { holderOf, userColumns, type TokenHolder } from '../token-holder.js';

/** Who an API key stands for, and which key it is. */
export type ApiKeyHolder = TokenHolder & { apiKeyId: string; lastUsedAt: string | null };

/** The user of an API key, found by the key's SHA-256 digest (hashToken). */
export async function findUserByApiKey(
  db: Db,
  organizationId: string,
  tokenHash: string,
): Promise<ApiKeyHolder | undefined> {
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

export async function touchApiKey(db: Db, apiKeyId: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', apiKeyId).execute();
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
