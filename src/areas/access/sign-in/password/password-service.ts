import type { Config } from '../../../../config.js';
import type { Db } from '../../../../db/database.js';
import type { Actor, Workspace } from '../../../../domain/actor.js';
import { ApiError, forbidden, invalid, unauthorized } from '../../../../domain/errors.js';
import { isEmail, normalizeEmail } from '../../../../lib/email.js';
import { nowIso } from '../../../../lib/time.js';
import { hashToken } from '../../../../lib/tokens.js';
import { completeSignIn, type SecondFactorRequired, type SignedIn, type SignInContext } from '../sign-in-flow.js';
import { hashPassword, passwordMatches } from './password-hashing.js';
import { accountPasswordHash, setAccountPassword } from './password-repository.js';
import { activeUserOfEmail } from '../../accounts/index.js';
import { assertPasswordLength, isFreshLinkSession } from './password-rules.js';
import { endOtherSessions, originOfSession } from '../../sessions/index.js';

/** Who failed: the account (by its email's digest, known or not) and the client address. */
export interface FailureKeys {
  account: string;
  address: string;
}

/**
 * The counts of failed password checks (docs/rules.md §7 Lockout), kept in the rate-limit stores
 * (shared through Redis when configured).
 */
export interface SignInFailures {
  /**
   * Counts a failure for both keys before the password is checked, at once and only when neither is
   * at its limit, so that checks arriving together never pass it: 0, or how long sign-ins for these keys are refused.
   */
  reserveFailure(keys: FailureKeys): Promise<number>;
  /** Takes a reserved failure back: the password was right. */
  releaseFailure(keys: FailureKeys): Promise<void>;
  /** Counts one more password check of the address: how long it must wait when over the minute's limit (else 0). */
  attempt(keys: FailureKeys): Promise<number>;
}

const keysOf = (email: string, context: SignInContext): FailureKeys => ({
  account: hashToken(normalizeEmail(email)),
  address: context.address ?? 'unknown',
});

/**
 * Checks a password against its hash (null: a check of the same cost that fails) under a failure
 * reserved first: a wrong password keeps it, any other end gives it back. While the account or the
 * address is locked, or the address is over the minute's checks, 429 and no hash is computed.
 */
async function checkedPassword(failures: SignInFailures, keys: FailureKeys, hash: string | null, password: string): Promise<boolean> {
  const seconds = await failures.reserveFailure(keys);
  if (seconds > 0) {
    throw new ApiError('rate-limited', `Too many failed sign-ins: try again in ${seconds} s.`, undefined, { 'retry-after': String(seconds) });
  }
  let wrong = false;
  try {
    const wait = await failures.attempt(keys);
    if (wait > 0) {
      throw new ApiError('rate-limited', `Too many password checks from this address: try again in ${wait} s.`, undefined, { 'retry-after': String(wait) });
    }
    wrong = !(await passwordMatches(hash, password));
    return !wrong;
  } finally {
    if (!wrong) await failures.releaseFailure(keys);
  }
}

const wrongPassword = () => unauthorized('The email or the password is wrong.');

/**
 * POST /auth/sign-in: the password of an unarchived user of the workspace begins a session. Every
 * failure (unknown email, no password set, wrong password, archived user) is the same 401 after the
 * same work (a hash is checked either way) and counts against the email and the address; while
 * either is locked out, 429 with Retry-After, whatever the password.
 */
export async function signInWithPassword(
  db: Db,
  config: Config,
  failures: SignInFailures,
  workspace: Workspace,
  body: { email: string; password: string },
  context: SignInContext,
): Promise<(SignedIn | SecondFactorRequired) & { email: string }> {
  const email = normalizeEmail(body.email);
  const keys = keysOf(email, context);
  const user = isEmail(email) ? await activeUserOfEmail(db, workspace.id, email) : undefined;
  const matches = await checkedPassword(failures, keys, user?.passwordHash ?? null, body.password);
  if (!user || !matches) throw wrongPassword();
  const signedIn = await db
    .transaction()
    .execute((trx) => completeSignIn(trx, config, { accountId: user.accountId, workspace, method: 'password' }, context));
  return { ...signedIn, email };
}

/**
 * PUT /auth/password (docs/rules.md §7 Passwords): sets the account's password. The current one
 * must be sent when there is one, except within PASSWORD_WINDOW_MINUTES of a link sign-in (a
 * sign-in, invitation or reset link proves the mailbox); an account without a password can set one
 * only then. A wrong current password is 403 and counts toward the lockout. Every other session of
 * the account ends.
 */
export async function changePassword(
  db: Db,
  failures: SignInFailures,
  actor: Actor,
  body: { currentPassword?: string; newPassword: string },
  context: SignInContext,
): Promise<void> {
  assertPasswordLength(body.newPassword, '/body/newPassword');
  const current = await accountPasswordHash(db, actor.accountId);
  const origin = actor.sessionId !== undefined ? await originOfSession(db, actor.sessionId) : undefined;
  if (!(origin && isFreshLinkSession(origin, nowIso()))) {
    if (current === null) {
      throw forbidden('This account has no password yet: sign in with a mailed link, then set one within 10 minutes.');
    }
    if (body.currentPassword === undefined) throw invalid('/body/currentPassword', 'is required to change the password');
    const keys = keysOf(actor.email, context);
    if (!(await checkedPassword(failures, keys, current, body.currentPassword))) throw forbidden('The current password is wrong.');
  }
  const digest = await hashPassword(body.newPassword);
  await db.transaction().execute(async (trx) => {
    await setAccountPassword(trx, actor.accountId, digest, nowIso());
    await endOtherSessions(trx, actor.accountId, actor.sessionId);
  });
}
