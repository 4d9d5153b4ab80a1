import type { Config } from '../../../config.js';
import type { Trx } from '../../../db/database.js';
import type { Workspace } from '../../../domain/actor.js';
import { addHours, nowIso } from '../../../lib/time.js';
import { newToken, SESSION_TOKEN_PREFIX } from '../../../lib/tokens.js';
import { insertSession, type SignInMethod } from '../sessions/session-repository.js';
import { secondFactorChallenge } from './second-factor-challenge.js';

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
  /**
   * The second factor is behind this sign-in already: a code was verified (POST /auth/two-factor/verify),
   * or the identity provider of a single sign-on answers for its own (docs/rules.md §8).
   */
  secondFactorDone?: boolean;
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

const USER_AGENT_CHARACTERS = 300;

/**
 * The one place every sign-in ends (docs/rules.md §7): a new session for the account (or, for a
 * support sign-in, acting as one user of one workspace), lasting the configured lifetime. Runs in
 * the transaction of the proof it follows (the one-time token used, the password checked), so a
 * session exists exactly when its proof was spent. The routes answer it with setSessionCookie.
 */
export async function completeSignIn(trx: Trx, config: Config, signIn: SignIn, context: SignInContext): Promise<SignedIn | SecondFactorRequired> {
  // A person whose account has 2FA on gets a challenge instead of a session (docs/rules.md §8); a
  // support sign-in acts with the consent of the administrator, not as the account's owner.
  if (signIn.actingAsUserId === undefined && !signIn.secondFactorDone) {
    const pending = await secondFactorChallenge(trx, signIn.accountId, signIn.workspace.id, signIn.method);
    if (pending) return { twoFactorRequired: true, ...pending };
  }
  const token = newToken(SESSION_TOKEN_PREFIX);
  const expiresAt = addHours(nowIso(), signIn.ttlHours ?? config.sessionTtlSeconds / 3600);
  const sessionId = await insertSession(trx, {
    accountId: signIn.accountId,
    token,
    expiresAt,
    method: signIn.method,
    userAgent: context.userAgent?.slice(0, USER_AGENT_CHARACTERS) ?? null,
    ...(signIn.actingAsUserId !== undefined ? { organizationId: signIn.workspace.id, userId: signIn.actingAsUserId } : {}),
  });
  return { sessionId, token, expiresAt };
}
