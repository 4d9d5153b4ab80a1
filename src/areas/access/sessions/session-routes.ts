import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Empty, operation } from '../../../route-kit/schemas.js';
import { clearSessionCookie } from '../../../route-kit/session-cookie.js';
import { SessionMap, SessionParams } from './session-schemas.js';
import { endSession, ownSessions, signOut } from './session-service.js';

const CSRF = 'With the session cookie, a write must send this workspace\'s own `Origin` (and no `Sec-Fetch-Site` but `same-origin`): 403 otherwise.';

/** Browser sessions (docs/rules.md §7 Sessions): ending the one in use, listing and ending the account's others. */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/auth/sign-out',
    {
      config: { permission: 'sessions:sign-out', changesIdentity: true },
      schema: operation({
        operationId: 'signOut',
        tag: 'Sign-in',
        summary: 'End the session in use and clear the session cookie',
        description:
          'Any role, any token. With a session token (sent as the bearer or as the cookie `timetrack_access_token`) ' +
          'the session ends at once: its token is 401 from the next request on. The answer clears the cookie. ' +
          'With an API key nothing is revoked (revoke keys with DELETE /api-keys/{apiKeyId}); only the cookie is cleared. ' +
          CSRF,
        response: Empty,
        errors: { 403: 'A cookie-authenticated request from another origin (CSRF)' },
      }),
    },
    async (request, reply) => {
      await signOut(app.db, request.actor);
      clearSessionCookie(reply, app.config);
      return {};
    },
  );

  app.get(
    '/auth/sessions',
    {
      config: { permission: 'sessions:manage' },
      schema: operation({
        operationId: 'listSessions',
        tag: 'Sign-in',
        summary: 'The sessions of the caller\'s account: where it is signed in',
        description:
          'Any role, for the caller\'s own account only: its sessions that have not ended (past their end or idle ' +
          'beyond the idle timeout, docs/rules.md §7 Sessions), oldest first, keyed by id: how each began, when it ' +
          'was created and last used (kept to the minute), when it ends, the user agent that began it, and which one ' +
          'this request uses (`current`). A support session acting as the caller is listed too, so it can be ended early. ' +
          'Never the tokens. Not with a support session: 403.',
        response: SessionMap,
        errors: { 403: 'A support session' },
      }),
    },
    async (request) => {
      const sessions = await ownSessions(app.db, app.config, request.actor);
      return Object.fromEntries(sessions.map((session) => [session.id, session]));
    },
  );

  app.delete(
    '/auth/sessions/:sessionId',
    {
      config: { permission: 'sessions:manage', changesIdentity: true },
      schema: operation({
        operationId: 'deleteSession',
        tag: 'Sign-in',
        summary: 'End one of the account\'s sessions (sign out another browser)',
        description:
          'Any role, for the caller\'s own account\'s sessions only: another account\'s session is 404, as is one that ' +
          'does not exist. Its token is refused at once on this instance and within a second on others. Ending the ' +
          'session in use also clears the cookie. Not with a support session: 403. ' +
          CSRF,
        params: SessionParams,
        response: Empty,
        errors: { 403: 'A support session, or a cookie-authenticated request from another origin (CSRF)' },
      }),
    },
    async (request, reply) => {
      const { current } = await endSession(app.db, request.actor, request.params.sessionId);
      if (current) clearSessionCookie(reply, app.config);
      return {};
    },
  );
};
