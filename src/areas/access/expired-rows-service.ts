import type { Db } from '../../db/database.js';
import { deleteExpiredRows, type ExpiringTable } from '../../db/expired-rows.js';

/** Rows deleted by one statement: a pass holds the store for one short statement at a time. */
export const EXPIRED_ROWS_BATCH = 500;

async function deleteInBatches(db: Db, table: ExpiringTable, before: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await deleteExpiredRows(db, table, before, EXPIRED_ROWS_BATCH);
    deleted += batch;
    if (batch < EXPIRED_ROWS_BATCH) return deleted;
  }
}

export interface ExpiredRowsPruned {
  oidcStates: number;
  signInChallenges: number;
  oneTimeTokens: number;
  sessions: number;
}

/**
 * Deletes, across workspaces, the sign-in rows nothing reads any more (docs/rules.md §7 Expired
 * rows): single sign-on attempts, second-factor challenges, one-time tokens and sessions past their
 * end. Used or not: a row past its end answers as an unknown one.
 */
export async function pruneExpiredSignInRows(db: Db, now = new Date()): Promise<ExpiredRowsPruned> {
  const at = now.toISOString();
  return {
    oidcStates: await deleteInBatches(db, 'oidc_states', at),
    signInChallenges: await deleteInBatches(db, 'sign_in_challenges', at),
    oneTimeTokens: await deleteInBatches(db, 'one_time_tokens', at),
    sessions: await deleteInBatches(db, 'sessions', at),
  };
}
