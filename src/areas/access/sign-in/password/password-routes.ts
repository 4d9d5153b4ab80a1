import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Empty, operation } from '../../../../route-kit/schemas.js';
import { setSessionCookie } from '../../../../route-kit/session-cookie.js';
import { needsSecondFactor } from '../sign-in-flow.js';
import { changePassword, signInWithPassword } from './password-service.js';
import { PasswordChange, PasswordSession, PasswordSignInBody } from './password-schemas.js';
import { contextOf } from '../sign-in-context.js';

/** Passwords (docs/rules.md §7 Passwords): signing in with one, setting and changing it. */
export const passwordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/auth/sign-in',
    {
      config: { public: true },
      schema: operation({
        operationId: 'signInWithPassword',
        tag: 'Sign-in',
        summary: 'Sign in with email and password',
        description:
          'No bearer token. The password of an unarchived user of this workspace begins a 12-hour session of the ' +
          'account (docs/rules.md §7 Sessions): the answer holds its token and when it ends, and sets the cookie ' +
          '`timetrack_access_token` (HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https, Path=/). Every failure ' +
          '(unknown email, no password set, wrong password, archived user) is the same 401 in the same time. Failed ' +
          'sign-ins are counted per email and per client address: at 10 for an email or 50 for an address within ' +
          '15 minutes (the operator can change both and the window), sign-ins there are 429 with Retry-After until ' +
          'the window ends, whatever the password; and past 60 password checks (by default) from one address in a minute, right or ' +
          'wrong, its sign-ins are 429 until the minute ends (docs/rules.md §7 Lockout). When the account has two-factor codes on, the ' +
          'answer holds `twoFactorRequired` and a `challenge` instead of a token, and no cookie is set (docs/rules.md §8).',
        body: PasswordSignInBody,
        response: PasswordSession,
        errors: { 401: 'The email or the password is wrong' },
        public: true,
      }),
    },
    async (request, reply) => {
      const session = await signInWithPassword(app.db, app.config, app.signInFailures, request.workspace, request.body, contextOf(request));
      const answer = { domain: request.workspace.domain, email: session.email, expiresAt: session.expiresAt };
      if (needsSecondFactor(session)) {
        reply.header('cache-control', 'no-store');
        return { ...answer, twoFactorRequired: true, challenge: session.challenge };
      }
      setSessionCookie(reply, app.config, session);
      return { ...answer, token: session.token };
    },
  );

  app.put(
    '/auth/password',
    {
      config: { permission: 'password:write', changesIdentity: true },
      schema: operation({
        operationId: 'setPassword',
        tag: 'Sign-in',
        summary: 'Set or change the password of the caller\'s account',
        description:
          'Any role, for the caller\'s own account (one password for every workspace of the account). `newPassword` ' +
          'is 12 to 256 characters (Unicode code points, compared in NFKC form), with no other rule (NIST SP 800-63B); ' +
          'it is stored only as an Argon2id digest. `currentPassword` is required when the account has a password ' +
          '(422 when missing, 403 when wrong, and a wrong one counts toward the lockout), except within 10 minutes of a ' +
          'sign-in by a mailed link (sign-in, invitation or password reset): the link proved the mailbox. An account ' +
          'without a password can set one only then (403 otherwise). Every other session of the account ends at once. ' +
          'Not with a support session: 403. With the session cookie, the workspace\'s own `Origin` is required (CSRF).',
        body: PasswordChange,
        response: Empty,
        errors: {
          403: 'A support session; the current password is wrong; no password yet and no fresh link sign-in; or CSRF',
          422: 'newPassword shorter than 12 or longer than 256 characters, or currentPassword missing',
        },
      }),
    },
    async (request) => {
      await changePassword(app.db, app.signInFailures, request.actor, request.body, contextOf(request));
      return {};
    },
  );
};
