import { sql } from 'kysely';
import type { Db, Trx } from '../../../../db/database.js';
import { newId } from '../../../../lib/ids.js';

export interface TwoFactorRow {
  sealedSecret: string;
  confirmedAt: string | null;
  lastStep: number | null;
  blockedUntil: string | null;
}

export async function findTwoFactor(db: Db, accountId: string): Promise<TwoFactorRow | undefined> {
  const row = await db
    .selectFrom('two_factor_secrets')
    .select(['secret', 'confirmed_at', 'last_step', 'blocked_until'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return (
    row && {
      sealedSecret: row.secret,
      confirmedAt: row.confirmed_at,
      lastStep: row.last_step === null ? null : Number(row.last_step),
      blockedUntil: row.blocked_until,
    }
  );
}

/** A new pending secret replaces a pending one; a confirmed one is left alone (answers false). */
export async function storePendingSecret(trx: Trx, accountId: string, sealedSecret: string, now: string): Promise<boolean> {
  await trx.deleteFrom('two_factor_secrets').where('account_id', '=', accountId).where('confirmed_at', 'is', null).execute();
  const result = await trx
    .insertInto('two_factor_secrets')
    .values({
      account_id: accountId,
      secret: sealedSecret,
      confirmed_at: null,
      last_step: null,
      failed_attempts: 0,
      blocked_until: null,
      created_at: now,
    })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/**
 * Records that a code of `step` was accepted: only when no code of that step or a later one was
 * (one conditional UPDATE, so of two requests with the same code one wins). Resets the failures.
 */
export async function acceptStep(trx: Db, accountId: string, step: number, confirmAt?: string): Promise<boolean> {
  const result = await trx
    .updateTable('two_factor_secrets')
    .set({ last_step: step, failed_attempts: 0, blocked_until: null, ...(confirmAt ? { confirmed_at: confirmAt } : {}) })
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Reserves one code attempt of the account before its code is checked: one conditional UPDATE, so
 * codes sent at once never take more than `max` in a row. The reservation that reaches `max` blocks
 * the account's codes until `blockUntil`; the first one after a block ended starts a new row. A right
 * code resets the row (acceptStep, clearFailures). Answers false while blocked (or with no secret).
 */
export async function reserveCodeAttempt(db: Db, accountId: string, now: string, max: number, blockUntil: string): Promise<boolean> {
  // Only rows without a block or with an ended one pass the WHERE, so a block here has ended.
  const attempts = sql<number>`case when blocked_until is null then failed_attempts + 1 else 1 end`;
  const result = await db
    .updateTable('two_factor_secrets')
    .set({ failed_attempts: attempts, blocked_until: sql<string | null>`case when ${attempts} >= ${max} then ${blockUntil} else null end` })
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb.and([eb('blocked_until', 'is', null), eb('failed_attempts', '<', max)]), eb('blocked_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function clearFailures(db: Db, accountId: string): Promise<void> {
  await db.updateTable('two_factor_secrets').set({ failed_attempts: 0, blocked_until: null }).where('account_id', '=', accountId).execute();
}

export async function deleteTwoFactor(trx: Trx, accountId: string): Promise<void> {
  await trx.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('two_factor_secrets').where('account_id', '=', accountId).execute();
}

export async function replaceRecoveryCodes(trx: Trx, accountId: string, digests: string[], now: string): Promise<void> {
  await trx.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
  await trx
    .insertInto('recovery_codes')
    .values(digests.map((digest) => ({ id: newId(), account_id: accountId, code_hash: digest, used_at: null, created_at: now })))
    .execute();
}

/** Uses a recovery code once (a conditional UPDATE: of two uses, one wins). */
export async function useRecoveryCode(db: Db, accountId: string, digest: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('account_id', '=', accountId)
    .where('code_hash', '=', digest)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countRecoveryCodesLeft(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('left'))
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}

/* Sign-in challenges: a sign-in waiting for its second factor. */

export async function insertChallenge(
  trx: Db,
  challenge: { tokenHash: string; accountId: string; organizationId: string; method: string; expiresAt: string; now: string },
): Promise<void> {
  await trx
    .insertInto('sign_in_challenges')
    .values({
      id: newId(),
      token_hash: challenge.tokenHash,
      account_id: challenge.accountId,
      organization_id: challenge.organizationId,
      method: challenge.method,
      attempts: 0,
      expires_at: challenge.expiresAt,
      used_at: null,
      created_at: challenge.now,
    })
    .execute();
}

/**
 * Reserves one attempt of a live challenge of this workspace (unused, unexpired, attempts left) before
 * its code is checked: one conditional UPDATE, so codes sent at once never take more than
 * `maxAttempts`. Answers the challenge's account.
 */
export async function reserveChallengeAttempt(
  db: Db,
  organizationId: string,
  tokenHash: string,
  now: string,
  maxAttempts: number,
): Promise<{ id: string; accountId: string; method: string } | undefined> {
  const row = await db
    .updateTable('sign_in_challenges')
    .set({ attempts: sql`attempts + 1` })
    .where('token_hash', '=', tokenHash)
    .where('organization_id', '=', organizationId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', maxAttempts)
    .returning(['id', 'account_id', 'method'])
    .executeTakeFirst();
  return row && { id: row.id, accountId: row.account_id, method: row.method };
}

/** Gives back a reserved attempt whose code was never checked. */
export async function releaseChallengeAttempt(db: Db, challengeId: string): Promise<void> {
  await db.updateTable('sign_in_challenges').set({ attempts: sql`attempts - 1` }).where('id', '=', challengeId).where('attempts', '>', 0).execute();
}

/** Uses a challenge once: of two verifications racing, one wins. */
export async function useChallenge(trx: Trx, challengeId: string, now: string): Promise<boolean> {
  const result = await trx
    .updateTable('sign_in_challenges')
    .set({ used_at: now })
    .where('id', '=', challengeId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
