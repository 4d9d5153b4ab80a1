import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { operation, ProblemSchema } from '../../../../route-kit/schemas.js';
import { setSessionCookie } from '../../../../route-kit/session-cookie.js';
import { clearOidcBrowserCookie, OIDC_BROWSER_COOKIE, oidcBrowserCookieOf, setOidcBrowserCookie } from './oidc-browser-cookie.js';
import { OidcCallbackQuery, SignInProviders } from './oidc-schemas.js';
import { finishOidc, OIDC_ATTEMPT_MINUTES, signInProviders, startOidc } from './oidc-service.js';
import { contextOf } from '../sign-in-context.js';

const TAG = 'Sign-in';

/**
 * A route that answers with a redirect (302 and `Location`), not a body: the operation's 200 is
 * replaced by it in the schema, which also makes the OpenAPI document say so.
 */
function redirecting<S extends { response: Record<number, unknown> }>(schema: S, description: string): S {
  const { 200: _ok, ...problems } = schema.response;
  const unavailable = {
    description: 'provider-unavailable: the single sign-on provider\'s discovery document cannot be read',
    content: { 'application/problem+json': { schema: Type.Ref(ProblemSchema) } },
  };
  return {
    ...schema,
    response: { 302: { description, headers: { Location: { type: 'string', description: 'Where the browser goes next' } } }, ...problems, 502: unavailable },
  };
}

/** Single sign-on with OpenID Connect (docs/rules.md §8 Single sign-on), and what the sign-in page offers. */
export const oidcRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/auth/providers',
    {
      config: { public: true },
      schema: operation({
        operationId: 'getSignInProviders',
        tag: TAG,
        summary: 'What the sign-in page shows: the workspace\'s name, and the ways in beyond email (whether single sign-on is configured, and its name)',
        description: 'No bearer token. Configured by the operator for the whole deployment (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET).',
        response: SignInProviders,
        public: true,
      }),
    },
    async (request) => signInProviders(app.db, app.config, request.workspace),
  );

  app.get(
    '/auth/oidc/start',
    {
      config: { public: true },
      onRequest: app.rateLimitHooks.oidcStartsPerAddress,
      schema: redirecting(
        operation({
          operationId: 'startSingleSignOn',
          tag: TAG,
          summary: 'Begin a single sign-on at this workspace: a redirect to the OpenID Connect provider',
          description:
            'No bearer token; opened by the browser at the workspace\'s host. The authorization code flow with PKCE ' +
            `(S256), a state and a nonce, valid ${OIDC_ATTEMPT_MINUTES} minutes and usable once; the provider sends the browser ` +
            'back to the deployment\'s one redirect URI, `PUBLIC_URL/api/auth/oidc/callback`. The redirect sets the cookie ' +
            `\`${OIDC_BROWSER_COOKIE}\` (HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https, Path=/api/auth/oidc/callback, ` +
            `Max-Age ${OIDC_ATTEMPT_MINUTES * 60}): the attempt works only in the browser that began it. At most ` +
            `${app.config.oidcStartsPerAddressPerMinute} starts a minute per client address (OIDC_STARTS_PER_ADDRESS); beyond, 429 ` +
            '`rate-limited` with Retry-After until the minute ends. 404 when the deployment ' +
            'has no provider configured; 502 `provider-unavailable` when its discovery document cannot be read.',
          response: SignInProviders,
          public: true,
        }),
        'The provider\'s authorization endpoint, with the request\'s parameters',
      ),
    },
    async (request, reply) => {
      const { location, browserSecret } = await startOidc(app.db, app.config, request.workspace);
      setOidcBrowserCookie(reply, app.config, browserSecret);
      reply.header('cache-control', 'no-store');
      return reply.redirect(location, 302);
    },
  );

  app.get(
    '/auth/oidc/callback',
    {
      config: { public: true, servedAtBareDomain: true },
      schema: redirecting(
        operation({
          operationId: 'finishSingleSignOn',
          tag: TAG,
          summary: 'Where the OpenID Connect provider sends the browser back: the session cookie, then the web app',
          description:
            'No bearer token. At the deployment\'s host (the redirect URI registered with the provider) the browser is ' +
            'forwarded, with the same query, to the host of the workspace the sign-on began at. There the state is used ' +
            `(once, by the browser that began it: a replayed, unknown or expired state, one of another workspace, or one brought ` +
            `without the start's cookie \`${OIDC_BROWSER_COOKIE}\` or with another browser's, is 401), the code is exchanged ` +
            'with the PKCE verifier and the ID token verified (issuer, audience, signature, nonce; 401 otherwise). The ' +
            'provider must give a verified email (403 otherwise), at one of OIDC_ALLOWED_DOMAINS when that is set (403). ' +
            'That email must be an active user of the workspace, or at a domain the workspace invites by single sign-on ' +
            '(PUT /auth/settings), which makes a new User (403 otherwise, archived users included). The answer sets the ' +
            'session cookie `timetrack_access_token`, clears the start\'s cookie and redirects to the workspace\'s address. No code is asked: the ' +
            'provider answers for its own second factor.',
          querystring: OidcCallbackQuery,
          response: SignInProviders,
          errors: { 401: 'The state or the provider\'s answer did not verify', 403: 'Not a verified email, or not let into the workspace' },
          public: true,
        }),
        'At the deployment\'s host: the same callback at the workspace\'s host. There: the workspace\'s address, with the session cookie set',
      ),
    },
    async (request, reply) => {
      const rawUrl = request.raw.url ?? '';
      const rawQuery = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : '';
      const outcome = await finishOidc(
        app.db,
        app.config,
        (request.workspace as typeof request.workspace | null) ?? null,
        { rawQuery, state: request.query.state, browserSecret: oidcBrowserCookieOf(request) },
        contextOf(request),
        (message) => request.log.warn(message),
      );
      reply.header('cache-control', 'no-store');
      if ('forwardTo' in outcome) return reply.redirect(outcome.forwardTo, 302);
      setSessionCookie(reply, app.config, outcome.session);
      clearOidcBrowserCookie(reply, app.config);
      return reply.redirect(outcome.redirectTo, 302);
    },
  );
};
