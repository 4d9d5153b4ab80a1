import type { Configuration } from 'openid-client';
import { workspaceUrl, type Config, type OidcConfig } from '../../../../config.js';
import type { Db } from '../../../../db/database.js';
import type { Workspace } from '../../../../domain/actor.js';
import { ApiError, forbidden, notFound, unauthorized } from '../../../../domain/errors.js';
import { emailDomainOf, isEmail, normalizeEmail } from '../../../../lib/email.js';
import { addMinutes, nowIso } from '../../../../lib/time.js';
import { hashToken, newToken } from '../../../../lib/tokens.js';
import { joinBySingleSignOn, workspaceUserOfEmail } from '../../../users/index.js';
import { getOrganization } from '../../../workspace/index.js';
import { completeSignIn, needsSecondFactor, type SignedIn, type SignInContext } from '../sign-in-flow.js';
import { openidClient, providerOf } from './oidc-client.js';
import { domainOfOidcState, insertOidcState, useOidcState } from './oidc-repository.js';
import { accountOfEmail } from '../../accounts/index.js';
import { sealerFor } from '../../../../lib/sealing.js';
import { findSignInSettings } from '../sign-in-settings-repository.js';

/** How long a single sign-on attempt may take, from the redirect to the provider to the callback. */
export const OIDC_ATTEMPT_MINUTES = 10;
const VERIFIER_PURPOSE = 'oidc-code-verifier';
/** The callback's path: one redirect URI for the whole deployment, on PUBLIC_URL's host. */
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';

/** What the web app shows on its sign-in page (GET /auth/providers). */
export async function signInProviders(db: Db, config: Config, workspace: Workspace): Promise<{ workspace: { name: string }; oidc: { configured: boolean; name: string | null } }> {
  const { name } = await getOrganization(db, workspace.id);
  return { workspace: { name }, oidc: { configured: config.oidc !== undefined, name: config.oidc?.displayName ?? null } };
}

const notConfigured = () => notFound('single sign-on provider: OIDC_ISSUER is not configured');
const refused = (detail: string) => unauthorized(`Single sign-on failed: ${detail}. Start again.`);
const redirectUriOf = (config: Config) => `${config.publicUrl}${OIDC_CALLBACK_PATH}`;

async function provider(oidc: OidcConfig): Promise<Configuration> {
  try {
    return await providerOf(oidc);
  } catch {
    throw new ApiError('provider-unavailable', 'The single sign-on provider does not answer; try again later.');
  }
}

/**
 * Starts a single sign-on at a workspace (docs/rules.md §8 Single sign-on): an attempt with a fresh
 * state, nonce and PKCE verifier (kept sealed) is stored for this workspace, bound to this browser by
 * the digest of `browserSecret` (the route gives it to the browser as a cookie), and the browser is
 * sent to the provider, which will send it back to the deployment's one callback.
 */
export async function startOidc(db: Db, config: Config, workspace: Workspace): Promise<{ location: string; browserSecret: string }> {
  if (!config.oidc) throw notConfigured();
  const configuration = await provider(config.oidc);
  const client = await openidClient();
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const browserSecret = newToken('');
  const now = nowIso();
  await insertOidcState(db, {
    stateHash: hashToken(state),
    organizationId: workspace.id,
    sealedVerifier: sealerFor(config).seal(VERIFIER_PURPOSE, verifier),
    nonce,
    browserHash: hashToken(browserSecret),
    expiresAt: addMinutes(now, OIDC_ATTEMPT_MINUTES),
    now,
  });
  const location = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUriOf(config),
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  }).href;
  return { location, browserSecret };
}

export type OidcCallbackOutcome = { forwardTo: string } | { session: SignedIn; redirectTo: string };

/**
 * The provider's answer. At the bare host (the redirect URI), the browser is forwarded with the same
 * query to the host of the workspace the attempt began at, so that the session cookie is that
 * host's. There the attempt is used once, by the browser that began it (a replayed state, or one
 * brought without that browser's cookie, is 401), the code exchanged with the PKCE
 * verifier, the ID token verified (issuer, audience, signature, nonce), and the verified email
 * mapped to the workspace's user, or to a new User when the workspace invites its domain.
 */
export async function finishOidc(
  db: Db,
  config: Config,
  workspace: Workspace | null,
  query: { rawQuery: string; state?: string | undefined; browserSecret?: string | undefined },
  context: SignInContext,
  log: (message: string) => void,
): Promise<OidcCallbackOutcome> {
  if (!config.oidc) throw notConfigured();
  const { state, rawQuery } = query;
  if (!state) throw refused('the answer carries no state');
  const stateHash = hashToken(state);
  if (workspace === null) {
    const domain = await domainOfOidcState(db, stateHash, nowIso());
    if (!domain) throw refused('the state is unknown, used or expired');
    return { forwardTo: `${workspaceUrl(config, domain)}${OIDC_CALLBACK_PATH}?${rawQuery}` };
  }
  // A callback URL completed in another browser (a login CSRF) comes without this one's cookie.
  if (!query.browserSecret) throw refused('this browser did not begin it');
  const attempt = await useOidcState(db, { organizationId: workspace.id, stateHash, browserHash: hashToken(query.browserSecret) }, nowIso());
  if (!attempt) throw refused('the state is unknown, used, expired, of another workspace or begun in another browser');
  const verifier = sealerFor(config).open(VERIFIER_PURPOSE, attempt.sealedVerifier);
  if (verifier === undefined) throw refused('the attempt cannot be read back');
  const configuration = await provider(config.oidc);
  const client = await openidClient();
  let claims: Record<string, unknown> | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, new URL(`${redirectUriOf(config)}?${rawQuery}`), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims()!;
    // Providers that keep the ID token small give the email at the userinfo endpoint, for the same subject.
    claims = idToken.email !== undefined ? idToken : { ...(await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), ...idToken };
  } catch (error) {
    const { cause } = error as { cause?: unknown };
    log(`single sign-on answer refused: ${(error as Error).message}${cause instanceof Error ? `: ${cause.message}` : ''}`);
    throw refused('the provider\'s answer did not verify');
  }
  const email = typeof claims?.email === 'string' ? normalizeEmail(claims.email) : '';
  if (!isEmail(email)) throw forbidden('The provider did not give an email address.');
  if (claims?.email_verified !== true) throw forbidden('The provider has not verified this email address.');
  const domain = emailDomainOf(email);
  if (config.oidc.allowedDomains.length > 0 && !config.oidc.allowedDomains.includes(domain)) {
    throw forbidden('Single sign-on is not open to this email domain here.');
  }
  const session = await db.transaction().execute(async (trx) => {
    const user = await workspaceUserOfEmail(trx, workspace.id, email);
    if (user?.archived) throw forbidden('This person\'s place in the workspace is archived.');
    let accountId: string;
    if (user) {
      accountId = await accountOfEmail(trx, email);
    } else {
      const { invitationDomains } = await findSignInSettings(trx, workspace.id);
      if (!invitationDomains.includes(domain)) throw forbidden('This person is not invited to the workspace: ask an administrator for an invitation.');
      accountId = await accountOfEmail(trx, email);
      const name = typeof claims?.name === 'string' ? claims.name.trim().slice(0, 200) || null : null;
      await joinBySingleSignOn(trx, { organizationId: workspace.id, accountId, name });
    }
    const outcome = await completeSignIn(trx, config, { accountId, workspace, method: 'oidc' }, context);
    if (needsSecondFactor(outcome)) throw new Error('a single sign-on asked for a second factor');
    return outcome;
  });
  return { session, redirectTo: `${workspaceUrl(config, workspace.domain)}/` };
}
