import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { operation } from '../../../../route-kit/schemas.js';
import { setSessionCookie } from '../../../../route-kit/session-cookie.js';
import { needsSecondFactor } from '../sign-in-flow.js';
import { redeemOneTimeSignIn } from './one-time-sign-in-service.js';
import { OneTimeBody, OneTimeSession } from './link-schemas.js';
import { contextOf } from '../sign-in-context.js';

/**
 * The other half of every mailed link: its one-time token is exchanged, once, for a session (a
 * support link's acts as the administrator who resolved the impersonation request).
 */
export const oneTimeSignInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/auth/one-time',
    {
      config: { public: true },
      schema: operation({
        operationId: 'redeemOneTimeSignIn',
        tag: 'Sign-in',
        summary: 'Redeem the one-time token of a mailed link for a session',
        description:
          'No bearer token: the body carries the token of a mailed link: a sign-in link (POST /auth/email-link, valid ' +
          '15 minutes), an invitation (valid 7 days), a password reset (valid 15 minutes) or the `supportSignIn` link ' +
          'of a resolved impersonation request (valid one hour). Each works once, at the host of its workspace only; ' +
          'anything else (a second use, an expired, unknown or malformed token, another workspace\'s host, a user ' +
          'archived since) is 401. A person\'s link starts a session of the person\'s account (12 hours, docs/rules.md ' +
          '§7 Sessions); after a sign-in, invitation or reset link the person may set a password without the current ' +
          'one for 10 minutes (PUT /auth/password). A support link starts a one-hour session acting as the resolving ' +
          'administrator (docs/rules.md §5). The answer holds the session token and when it ends, and sets it as the ' +
          'cookie `timetrack_access_token` (HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https, Path=/). ' +
          'A person whose account has two-factor authentication on gets no session yet: the answer has no `token` but ' +
          '`twoFactorRequired: true` and a `challenge` (valid 5 minutes, until `expiresAt`) to send with a code to ' +
          'POST /auth/two-factor/verify (docs/rules.md §8).',
        body: OneTimeBody,
        response: OneTimeSession,
        errors: { 401: 'The token is unknown, used, expired or of another workspace' },
        public: true,
      }),
    },
    async (request, reply) => {
      const session = await redeemOneTimeSignIn(app.db, app.config, request.workspace, request.body.token, contextOf(request));
      request.log.info({ organizationId: request.workspace.id, purpose: session.purpose }, 'one-time sign-in redeemed');
      const answer = { domain: request.workspace.domain, email: session.email, expiresAt: session.expiresAt, purpose: session.purpose };
      if (needsSecondFactor(session)) {
        reply.header('cache-control', 'no-store');
        return { ...answer, twoFactorRequired: true, challenge: session.challenge };
      }
      setSessionCookie(reply, app.config, session);
      return { ...answer, token: session.token };
    },
  );
};
