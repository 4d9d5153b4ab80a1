import type { Config } from '../../config.js';
import type { Trx } from '../../db/database.js';
import type { Workspace } from '../../domain/actor.js';
import { addHours, nowIso } from '../../lib/time.js';
import { newToken, SESSION_TOKEN_PREFIX } from '../../lib/tokens.js';
import { insertSession, type SignInMethod } from './repository.js';

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

const USER_AGENT_CHARACTERS = 300;

/**
 * Where a sign-in that proved the first factor asks for a second (docs/rules.md §7 Two-factor): the
 * place to answer "a second factor is required" instead of a session, before anything is issued.
 * No way in requires one yet, so it lets every sign-in through.
 */
async function requireSecondFactor(_trx: Trx, _signIn: SignIn): Promise<void> {}

/**
 * The one place every sign-in ends (docs/rules.md §7): a new session for the account (or, for a
 * support sign-in, acting as one user of one workspace), lasting the configured lifetime. Runs in
 * the transaction of the proof it follows (the one-time token used, the password checked), so a
 * session exists exactly when its proof was spent. The routes answer it with setSessionCookie.
 */
export async function completeSignIn(trx: Trx, config: Config, signIn: SignIn, context: SignInContext): Promise<SignedIn> {
  await requireSecondFactor(trx, signIn);
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
