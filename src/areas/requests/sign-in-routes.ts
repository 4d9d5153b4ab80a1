import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { insertSession } from '../access/repository.js';
import { fromDbBool } from '../../db/values.js';
import { unauthorized } from '../../domain/errors.js';
import { operation } from '../../http/schemas.js';
import { addHours, nowIso } from '../../lib/time.js';
import { isTokenOf, newToken, ONE_TIME_TOKEN_PREFIX, SESSION_TOKEN_PREFIX } from '../../lib/tokens.js';
import { redeemOneTimeToken } from './repository.js';
import { ONE_TIME_TTL_HOURS } from './rules.js';
import { OneTimeBody, OneTimeSession } from './schemas.js';

const rejected = () => unauthorized('The sign-in link is unknown, used, expired or of another workspace.');

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
      const { token } = request.body;
      if (!isTokenOf(ONE_TIME_TOKEN_PREFIX, token)) throw rejected();
      const session = await app.db.transaction().execute(async (trx) => {
        const now = nowIso();
        const user = await redeemOneTimeToken(trx, request.workspace.id, token, now);
        if (!user || fromDbBool(user.archived)) throw rejected();
        const sessionToken = newToken(SESSION_TOKEN_PREFIX);
        const expiresAt = addHours(now, ONE_TIME_TTL_HOURS);
        await insertSession(trx, {
          accountId: user.account_id,
          token: sessionToken,
          expiresAt,
          organizationId: request.workspace.id,
          userId: user.user_id,
        });
        return { email: user.email, token: sessionToken, expiresAt };
      });
      request.log.info({ organizationId: request.workspace.id }, 'one-time support sign-in redeemed');
      reply.header('cache-control', 'no-store');
      return { domain: request.workspace.domain, ...session };
    },
  );
};
