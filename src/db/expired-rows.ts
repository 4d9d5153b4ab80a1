import { sql } from 'kysely';
import type { Db } from './database.js';

/** The tables whose rows end at their `expires_at`, and the column that names a row of each. */
const EXPIRING = { sessions: 'id', one_time_tokens: 'id', sign_in_challenges: 'id', oidc_states: 'state_hash' } as const;

export type ExpiringTable = keyof typeof EXPIRING;

/** Deletes up to `limit` rows of the table that ended before the instant (by its expires_at index); answers how many. */
export async function deleteExpiredRows(db: Db, table: ExpiringTable, before: string, limit: number): Promise<number> {
  const key = sql.ref(EXPIRING[table]);
  const result = await sql`delete from ${sql.table(table)} where ${key} in (select ${key} from ${sql.table(table)} where expires_at < ${before} limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
