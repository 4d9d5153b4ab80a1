import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { operation } from '../../http/schemas.js';
import { OneTimeBody, OneTimeSession } from './schemas.js';
import { redeemSupportSignIn } from './support-sign-in.js';

/**
 * The other half of a resolved impersonation request: the one-time token mailed to support is
 * exchanged, once, for a session acting as the administrator who resolved the request.
 */
export const signInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/auth/one-time',
    {
      config: { public: true },
      schema: operation({
        operationId: 'redeemOneTimeSignIn',
        tag: 'Workspace',
        summary: 'Redeem a one-time support sign-in token for a one-hour session',
        description:
          'No bearer token: the body carries the token of the `supportSignIn` link sent when an impersonation request ' +
          'was resolved. Works once, within an hour of the resolution, at the host of that workspace only; anything ' +
          'else (a second use, an expired, unknown or malformed token, another workspace\'s host, a resolving ' +
          'administrator archived since) is 401. The answer is the auth snapshot of a new session access token, valid ' +
          'one hour, that acts as the resolving administrator, and when it expires.',
        body: OneTimeBody,
        response: OneTimeSession,
        errors: { 401: 'The token is unknown, used, expired or of another workspace' },
        public: true,
      }),
    },
    async (request, reply) => {
      const session = await redeemSupportSignIn(app.db, request.workspace, request.body.token);
      request.log.info({ organizationId: request.workspace.id }, 'one-time support sign-in redeemed');
      reply.header('cache-control', 'no-store');
      return { domain: request.workspace.domain, ...session };
    },
  );
};
