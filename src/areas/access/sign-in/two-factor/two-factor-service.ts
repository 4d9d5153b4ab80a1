import type { Config } from '../../../../config.js';
import type { Db, Trx } from '../../../../db/database.js';
import type { Actor, Workspace } from '../../../../domain/actor.js';
import { ApiError, conflict, invalid, unauthorized } from '../../../../domain/errors.js';
import { addMinutes, nowIso } from '../../../../lib/time.js';
import { hashToken } from '../../../../lib/tokens.js';
import { sealerFor } from '../../../../lib/sealing.js';
import { completeSecondFactor, type SignedIn, type SignInContext } from '../sign-in-flow.js';
import type { SignInMethod } from '../../sessions/index.js';
import { acceptStep, clearFailures, countRecoveryCodesLeft, deleteTwoFactor, findTwoFactor, releaseChallengeAttempt, replaceRecoveryCodes, reserveChallengeAttempt, reserveCodeAttempt, storePendingSecret, useChallenge, useRecoveryCode, type TwoFactorRow } from './two-factor-repository.js';
import { findSignInSettings } from '../sign-in-settings-repository.js';
import { BLOCK_MINUTES, canonicalRecoveryCode, CHALLENGE_ATTEMPTS, MAX_FAILED_CODES, newRecoveryCode, newTotpSecret, RECOVERY_CODE_COUNT, stepOfCode, totpUri } from './two-factor-rules.js';

/** Sealed values and keyed digests name what they hold (lib/sealing.ts). */
const SECRET_PURPOSE = 'totp-secret';
const RECOVERY_PURPOSE = 'recovery-code';

export interface TwoFactorStatus {
  enabled: boolean;
  pending: boolean;
  recoveryCodesLeft: number;
  requiredByWorkspace: boolean;
}

export async function twoFactorStatus(db: Db, actor: Actor): Promise<TwoFactorStatus> {
  const row = await findTwoFactor(db, actor.accountId);
  const settings = await findSignInSettings(db, actor.organizationId);
  return {
    enabled: row?.confirmedAt != null,
    pending: row !== undefined && row.confirmedAt === null,
    recoveryCodesLeft: row?.confirmedAt != null ? await countRecoveryCodesLeft(db, actor.accountId) : 0,
    requiredByWorkspace: settings.twoFactorRequired,
  };
}

/**
 * Starts an enrolment: a new secret, kept sealed and pending until a code confirms it. The secret is
 * answered once (as text, as an otpauth:// URI and as a QR code of that URI); a second enrolment
 * before confirmation replaces it. An account whose 2FA is on must disable it first (409).
 */
export async function enrolTwoFactor(db: Db, config: Config, actor: Actor): Promise<{ secret: string; uri: string; qrSvg: string }> {
  const secret = newTotpSecret();
  const sealed = sealerFor(config).seal(SECRET_PURPOSE, secret);
  const stored = await db.transaction().execute((trx) => storePendingSecret(trx, actor.accountId, sealed, nowIso()));
  if (!stored) throw conflict('Two-factor authentication is already on for this account: disable it before enrolling again.');
  const uri = totpUri(secret, new URL(config.publicUrl).hostname, actor.email);
  // qrcode is loaded with the first enrolment: most requests never draw a code.
  const { default: QRCode } = await import('qrcode');
  return { secret, uri, qrSvg: await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) };
}

/** Confirms a pending enrolment with a current code; answers the ten recovery codes, once. */
export async function confirmTwoFactor(db: Db, config: Config, actor: Actor, code: string): Promise<{ recoveryCodes: string[] }> {
  const row = await findTwoFactor(db, actor.accountId);
  if (!row) throw conflict('No enrolment is pending: start one with POST /auth/two-factor.');
  if (row.confirmedAt !== null) throw conflict('Two-factor authentication is already on for this account.');
  const sealer = sealerFor(config);
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const confirmed = await checkedCode(db, config, actor.accountId, row, { code }, async (trx, accepted) => {
    const now = nowIso();
    if (!(await accepted(trx, now))) return false;
    await replaceRecoveryCodes(trx, actor.accountId, recoveryCodes.map((c) => sealer.digest(RECOVERY_PURPOSE, canonicalRecoveryCode(c))), now);
    return true;
  }, { confirm: true });
  if (!confirmed) throw invalid('/body/code', 'is not the current code of the authenticator');
  return { recoveryCodes };
}

/** Turns 2FA off (or drops a pending enrolment) with a current code or an unused recovery code. */
export async function disableTwoFactor(db: Db, config: Config, actor: Actor, proof: CodeProof): Promise<void> {
  assertOneProof(proof);
  const row = await findTwoFactor(db, actor.accountId);
  if (!row) throw conflict('Two-factor authentication is not on for this account.');
  const done = await checkedCode(db, config, actor.accountId, row, proof, async (trx, accepted) => {
    if (!(await accepted(trx, nowIso()))) return false;
    await deleteTwoFactor(trx, actor.accountId);
    return true;
  });
  if (!done) throw invalid(proof.code !== undefined ? '/body/code' : '/body/recoveryCode', 'is not a valid code for this account');
}

/**
 * New recovery codes for an account with 2FA on, with a current code or an unused recovery code:
 * the ten answered once replace every earlier one, used or not.
 */
export async function regenerateRecoveryCodes(db: Db, config: Config, actor: Actor, proof: CodeProof): Promise<{ recoveryCodes: string[] }> {
  assertOneProof(proof);
  const row = await findTwoFactor(db, actor.accountId);
  if (!row || row.confirmedAt === null) throw conflict('Two-factor authentication is not on for this account.');
  const sealer = sealerFor(config);
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const done = await checkedCode(db, config, actor.accountId, row, proof, async (trx, accepted) => {
    const now = nowIso();
    if (!(await accepted(trx, now))) return false;
    await replaceRecoveryCodes(trx, actor.accountId, recoveryCodes.map((c) => sealer.digest(RECOVERY_PURPOSE, canonicalRecoveryCode(c))), now);
    return true;
  });
  if (!done) throw invalid(proof.code !== undefined ? '/body/code' : '/body/recoveryCode', 'is not a valid code for this account');
  return { recoveryCodes };
}

const challengeRefused = () => unauthorized('The sign-in challenge is unknown, used, expired or out of attempts: sign in again.');

/** Finishes a sign-in that waited for its second factor: a code or a recovery code, once, then the session. */
export async function verifySecondFactor(
  db: Db,
  config: Config,
  workspace: Workspace,
  body: { challenge: string } & CodeProof,
  context: SignInContext,
): Promise<SignedIn> {
  assertOneProof(body);
  const found = await reserveChallengeAttempt(db, workspace.id, hashToken(body.challenge), nowIso(), CHALLENGE_ATTEMPTS);
  if (!found) throw challengeRefused();
  const row = await findTwoFactor(db, found.accountId);
  if (!row || row.confirmedAt === null) throw challengeRefused();
  let session: SignedIn | undefined;
  const verified = await checkedCode(db, config, found.accountId, row, body, async (trx, accepted) => {
    const now = nowIso();
    if (!(await useChallenge(trx, found.id, now))) return false;
    if (!(await accepted(trx, now))) return false;
    session = await completeSecondFactor(trx, config, { accountId: found.accountId, workspace, method: found.method as SignInMethod }, context);
    return true;
  }).catch(async (error: unknown) => {
    // Blocked codes checked nothing: the challenge keeps the attempt for after the block, as before.
    if (error instanceof ApiError && error.code === 'rate-limited') await releaseChallengeAttempt(db, found.id);
    throw error;
  });
  if (!verified || !session) throw unauthorized('The code is wrong or was used already.');
  return session;
}

export interface CodeProof {
  code?: string;
  recoveryCode?: string;
}

function assertOneProof(proof: CodeProof): void {
  if ((proof.code === undefined) === (proof.recoveryCode === undefined)) {
    throw invalid('/body', 'must carry exactly one of code and recoveryCode');
  }
}

type Accept = (trx: Trx, now: string) => Promise<boolean>;

/**
 * Checks a code (or a recovery code, once 2FA is on) for an account inside one transaction that runs
 * `effect` with the acceptance: a code counts once (its time step must be later than the last one
 * accepted), a recovery code once. The attempt is reserved before the check and kept when the code is
 * wrong, so that however many codes arrive at once at most MAX_FAILED_CODES in a row are checked;
 * they then refuse every code of the account for BLOCK_MINUTES (429). A right code resets the count.
 */
async function checkedCode(
  db: Db,
  config: Config,
  accountId: string,
  row: TwoFactorRow,
  proof: CodeProof,
  effect: (trx: Trx, accepted: Accept) => Promise<boolean>,
  options: { confirm?: boolean } = {},
): Promise<boolean> {
  const nowMs = Date.now();
  const nowText = new Date(nowMs).toISOString();
  if (!(await reserveCodeAttempt(db, accountId, nowText, MAX_FAILED_CODES, addMinutes(nowText, BLOCK_MINUTES)))) {
    const blockedUntil = (await findTwoFactor(db, accountId))?.blockedUntil;
    // No block to wait for: the secret was deleted meanwhile, and no code can be right.
    if (blockedUntil == null) return false;
    const seconds = Math.max(1, Math.ceil((Date.parse(blockedUntil) - nowMs) / 1000));
    throw new ApiError('rate-limited', `Too many wrong codes: try again in ${seconds} s.`, undefined, { 'retry-after': String(seconds) });
  }
  const sealer = sealerFor(config);
  const accepted: Accept = async (trx, now) => {
    if (proof.code !== undefined) {
      const secret = sealer.open(SECRET_PURPOSE, row.sealedSecret);
      const step = secret === undefined ? undefined : stepOfCode(secret, proof.code, nowMs);
      return step !== undefined && acceptStep(trx, accountId, step, options.confirm ? now : undefined);
    }
    if (proof.recoveryCode !== undefined && row.confirmedAt !== null) {
      return useRecoveryCode(trx, accountId, sealer.digest(RECOVERY_PURPOSE, canonicalRecoveryCode(proof.recoveryCode)), now);
    }
    return false;
  };
  const ok = await db.transaction().execute(async (trx) => {
    const done = await effect(trx, accepted);
    // A refusal must change nothing the transaction did before it (a challenge used, say).
    if (!done) throw REFUSED;
    return true;
  }).catch((error: unknown) => {
    if (error === REFUSED) return false;
    throw error;
  });
  if (ok && proof.recoveryCode !== undefined) await clearFailures(db, accountId);
  return ok;
}

const REFUSED = Symbol('refused');
