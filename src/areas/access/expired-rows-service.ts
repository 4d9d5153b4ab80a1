import type { Db } from '../../db/database.js';
import { deleteExpiredSessions } from './sessions/session-repository.js';
import { deleteExpiredOneTimeTokens } from './sign-in/link/one-time-token-repository.js';
import { deleteExpiredOidcStates } from './sign-in/single-sign-on/oidc-repository.js';
import { deleteExpiredChallenges } from './sign-in/two-factor/two-factor-repository.js';

/** Rows deleted by one statement: a pass holds the store for one short statement at a time. */
export const EXPIRED_ROWS_BATCH = 500;

type BatchDelete = (db: Db, before: string, limit: number) => Promise<number>;

async function deleteInBatches(db: Db, deleteBatch: BatchDelete, before: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await deleteBatch(db, before, EXPIRED_ROWS_BATCH);
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
    oidcStates: await deleteInBatches(db, deleteExpiredOidcStates, at),
    signInChallenges: await deleteInBatches(db, deleteExpiredChallenges, at),
    oneTimeTokens: await deleteInBatches(db, deleteExpiredOneTimeTokens, at),
    sessions: await deleteInBatches(db, deleteExpiredSessions, at),
  };
}
