import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * Single sign-on bound to its browser, and expired sign-in rows pruned (docs/rules.md §8 Single
 * sign-on, §7 Expired rows):
 * - oidc_states.browser_hash: the SHA-256 digest of the random value of the cookie the start set in
 *   the browser that began the attempt; the callback must bring that cookie. Attempts begun before
 *   have none, and are refused.
 * - one index on `expires_at` per table the server prunes (oidc_states, sign_in_challenges,
 *   one_time_tokens, sessions), so that each pass finds its batch without reading the whole table.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('oidc_states').addColumn('browser_hash', t.text).execute();
  for (const table of ['oidc_states', 'sign_in_challenges', 'one_time_tokens', 'sessions']) {
    await db.schema.createIndex(`${table}_expiry`).on(table).column('expires_at').execute();
  }
}
