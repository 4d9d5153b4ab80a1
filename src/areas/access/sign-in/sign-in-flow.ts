import type { Config } from '../../../config.js';
import type { Db, Trx } from '../../../db/database.js';
import type { Workspace } from '../../../domain/actor.js';
import { addHours, addMinutes, nowIso } from '../../../lib/time.js';
import { hashToken, newToken, SESSION_TOKEN_PREFIX } from '../../../lib/tokens.js';
import { joinOnSignIn } from '../../users/index.js';
import { beginSession, type SignInMethod } from '../sessions/index.js';
import { findTwoFactor, insertChallenge } from './two-factor/two-factor-repository.js';
import { CHALLENGE_TTL_MINUTES } from './two-factor/two-factor-rules.js';

/*
 * The sign-in flow (docs/rules.md §7, §8): its states, and the one place that decides which comes
 * next. Every way in proves its credentials and calls a transition here.
 *
 *   credentials proven (a link, a password, a support link, a single sign-on) → completeSignIn:
 *     a support link                                   → signed in, acting as one user
 *     a single sign-on (its provider answers for it)   → signed in
 *     an account with 2FA on                           → second factor required: a challenge
 *     otherwise                                        → signed in
 *   second factor required → a right code for a live challenge (two-factor-service.ts checks it and
 *     counts wrong ones) → completeSecondFactor → signed in
 *   signed in, in a workspace that requires 2FA, by an account without it → enrolment required: the
 *     session may only enrol. Decided at each request, since the setting may change after the
 *     sign-in: the session lookup marks it (sessions/session-repository.ts) and authentication holds it.
 */

/** Who is signing in, and how: what every way in (link, password, support link…) hands to completeSignIn. */
export interface SignIn {
  accountId: string;
  /** The workspace whose host the sign-in happened at. */
  workspace: Workspace;
  method: SignInMethod;
  /** A support session acts as this one user of the workspace only, for SUPPORT_SIGN_IN_TTL_HOURS (docs/rules.md §5). */
  actingAsUserId?: string;
  /** Overrides the session lifetime (support sessions last one hour). */
  ttlHours?: number;
}

/** The request a sign-in came with: kept with the session (user agent) or for the checks around it (address). */
export interface SignInContext {
  userAgent?: string | undefined;
  address?: string | undefined;
}

export interface SignedIn {
  sessionId: string;
  token: string;
  expiresAt: string;
}

/** A sign-in of an account with two-factor authentication on, before its code: no session yet. */
export interface SecondFactorRequired {
  twoFactorRequired: true;
  /** The opaque token to send with the code to POST /auth/two-factor/verify. */
  challenge: string;
  expiresAt: string;
}

export const needsSecondFactor = (outcome: SignedIn | SecondFactorRequired): outcome is SecondFactorRequired => 'challenge' in outcome;

/**
 * Whether proven credentials still ask for the account's second factor (docs/rules.md §8): a support
 * sign-in acts with the consent of the administrator, not as the account's owner, and the identity
 * provider of a single sign-on answers for its own.
 */
const asksSecondFactor = (signIn: SignIn): boolean => signIn.actingAsUserId === undefined && signIn.method !== 'oidc';

/**
 * The one place every sign-in ends (docs/rules.md §7): a new session for the account (or, for a
 * support sign-in, acting as one user of one workspace), lasting the configured lifetime, or a
 * challenge first when the account has 2FA on. Runs in the transaction of the proof it follows (the
 * one-time token used, the password checked), so a session exists exactly when its proof was spent.
 * The routes answer it with setSessionCookie.
 */
export async function completeSignIn(trx: Trx, config: Config, signIn: SignIn, context: SignInContext): Promise<SignedIn | SecondFactorRequired> {
  if (asksSecondFactor(signIn)) {
    const pending = await secondFactorChallenge(trx, signIn.accountId, signIn.workspace.id, signIn.method);
    if (pending) return { twoFactorRequired: true, ...pending };
  }
  return startSession(trx, config, signIn, context);
}

/** A sign-in whose challenge was answered with a right code: the session it waited for, in the transaction that used the challenge. */
export function completeSecondFactor(
  trx: Trx,
  config: Config,
  signIn: Pick<SignIn, 'accountId' | 'workspace' | 'method'>,
  context: SignInContext,
): Promise<SignedIn> {
  return startSession(trx, config, signIn, context);
}

const USER_AGENT_CHARACTERS = 300;

async function startSession(trx: Trx, config: Config, signIn: SignIn, context: SignInContext): Promise<SignedIn> {
  const token = newToken(SESSION_TOKEN_PREFIX);
  const expiresAt = addHours(nowIso(), signIn.ttlHours ?? config.sessionTtlSeconds / 3600);
  const sessionId = await beginSession(trx, {
    accountId: signIn.accountId,
    token,
    expiresAt,
    method: signIn.method,
    userAgent: context.userAgent?.slice(0, USER_AGENT_CHARACTERS) ?? null,
    ...(signIn.actingAsUserId !== undefined ? { organizationId: signIn.workspace.id, userId: signIn.actingAsUserId } : {}),
  });
  // A first sign-in here joins an invited user (docs/rules.md §6 Users); a support session is not theirs.
  if (signIn.actingAsUserId === undefined) await joinOnSignIn(trx, { organizationId: signIn.workspace.id, accountId: signIn.accountId });
  return { sessionId, token, expiresAt };
}

/** Challenge tokens: `ttc_` and 43 random characters, stored by digest like every token (docs/rules.md §8). */
export const CHALLENGE_TOKEN_PREFIX = 'ttc_';

/**
 * The second-factor step (docs/rules.md §8 Two-factor codes): for an account with 2FA on, a challenge
 * (an opaque token valid CHALLENGE_TTL_MINUTES, for this workspace) to send with a code to
 * POST /auth/two-factor/verify, instead of a session; otherwise nothing.
 */
export async function secondFactorChallenge(
  trx: Db,
  accountId: string,
  organizationId: string,
  method: SignInMethod,
): Promise<{ challenge: string; expiresAt: string } | undefined> {
  const row = await findTwoFactor(trx, accountId);
  if (!row || row.confirmedAt === null) return undefined;
  const challenge = newToken(CHALLENGE_TOKEN_PREFIX);
  const now = nowIso();
  const expiresAt = addMinutes(now, CHALLENGE_TTL_MINUTES);
  await insertChallenge(trx, { tokenHash: hashToken(challenge), accountId, organizationId, method, expiresAt, now });
  return { challenge, expiresAt };
}
