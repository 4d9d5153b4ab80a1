import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Empty, operation } from '../../../../route-kit/schemas.js';
import { setSessionCookie } from '../../../../route-kit/session-cookie.js';
import { contextOf } from '../sign-in-context.js';
import { RecoveryCodes, TwoFactorConfirm, TwoFactorDisable, TwoFactorEnrolment, TwoFactorStatus, TwoFactorVerify, VerifiedSession } from './two-factor-schemas.js';
import { confirmTwoFactor, disableTwoFactor, enrolTwoFactor, regenerateRecoveryCodes, twoFactorStatus, verifySecondFactor } from './two-factor-service.js';
import { BLOCK_MINUTES, CHALLENGE_ATTEMPTS, CHALLENGE_TTL_MINUTES, MAX_FAILED_CODES, RECOVERY_CODE_COUNT } from './two-factor-rules.js';

const TAG = 'Sign-in';
const NOT_SUPPORT = 'Not with a support session (docs/rules.md §5): 403, it cannot change credentials.';
const LOCKOUT =
  `${MAX_FAILED_CODES} wrong codes in a row (any route, any workspace) refuse every code of the account for ` +
  `${BLOCK_MINUTES} minutes: 429 with Retry-After.`;
const ONE_PROOF = 'The body carries exactly one of `code` and `recoveryCode`; otherwise 422 at /body: "must carry exactly one of code and recoveryCode".';

/** Two-factor codes (TOTP, RFC 6238) of the caller's account, and the second step of a sign-in (docs/rules.md §8). */
export const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/auth/two-factor',
    {
      config: { permission: 'two-factor:manage' },
      schema: operation({
        operationId: 'getTwoFactor',
        tag: TAG,
        summary: 'Whether the caller\'s account has two-factor authentication on',
        description:
          'Any role, about the caller\'s own account (2FA belongs to the person, in every workspace): on, pending ' +
          'confirmation, how many recovery codes are left, and whether this workspace requires 2FA. ' + NOT_SUPPORT,
        response: TwoFactorStatus,
        errors: { 403: 'A support session' },
      }),
    },
    async (request) => twoFactorStatus(app.db, request.actor),
  );

  app.post(
    '/auth/two-factor',
    {
      config: { permission: 'two-factor:manage' },
      schema: operation({
        operationId: 'enrolTwoFactor',
        tag: TAG,
        summary: 'Start an enrolment: a new TOTP secret, shown once as text, otpauth:// URI and QR code (SVG)',
        description:
          'Any role, for the caller\'s account. The secret (SHA-1, 6 digits, 30 s) is kept encrypted and pending until ' +
          'POST /auth/two-factor/confirm sends a current code; a new enrolment replaces a pending one. ' +
          '409 when 2FA is already on (disable it first). ' + NOT_SUPPORT,
        response: TwoFactorEnrolment,
        errors: { 403: 'A support session', 409: 'Two-factor authentication is already on' },
      }),
    },
    async (request) => enrolTwoFactor(app.db, app.config, request.actor),
  );

  app.post(
    '/auth/two-factor/confirm',
    {
      config: { permission: 'two-factor:manage', changesIdentity: true },
      schema: operation({
        operationId: 'confirmTwoFactor',
        tag: TAG,
        summary: `Turn 2FA on with a current code; answers ${RECOVERY_CODE_COUNT} recovery codes, once`,
        description:
          'Any role, for the caller\'s account. `code` must be the code of the pending secret for now (or the 30 s ' +
          'step before or after), else 422 at /body/code; a code counts once. From then on, password and email-link ' +
          `sign-ins ask for a code. The ${RECOVERY_CODE_COUNT} recovery codes each work once instead of a code; ` +
          'only their keyed digests are kept. 409 when no enrolment is pending or 2FA is already on. ' + LOCKOUT,
        body: TwoFactorConfirm,
        response: RecoveryCodes,
        errors: { 403: 'A support session', 409: 'No enrolment is pending, or 2FA is already on', 422: 'The code is not the current one' },
      }),
    },
    async (request) => confirmTwoFactor(app.db, app.config, request.actor, request.body.code),
  );

  app.post(
    '/auth/two-factor/disable',
    {
      config: { permission: 'two-factor:manage', changesIdentity: true },
      schema: operation({
        operationId: 'disableTwoFactor',
        tag: TAG,
        summary: 'Turn 2FA off (or drop a pending enrolment) with a current code or a recovery code',
        description:
          'Any role, for the caller\'s account. ' + ONE_PROOF + ' A wrong or already used code is 422 at its pointer. ' +
          'The secret and every recovery code are deleted. 409 when 2FA is neither on nor pending. ' + LOCKOUT,
        body: TwoFactorDisable,
        response: Empty,
        errors: { 403: 'A support session', 409: 'Two-factor authentication is not on', 422: 'The code is wrong or used' },
      }),
    },
    async (request) => {
      await disableTwoFactor(app.db, app.config, request.actor, request.body);
      return {};
    },
  );

  app.post(
    '/auth/two-factor/recovery-codes',
    {
      config: { permission: 'two-factor:manage', changesIdentity: true },
      schema: operation({
        operationId: 'regenerateRecoveryCodes',
        tag: TAG,
        summary: `New recovery codes with a current code or a recovery code; answers ${RECOVERY_CODE_COUNT}, once`,
        description:
          'Any role, for the caller\'s account with 2FA on. ' + ONE_PROOF + ' A wrong or already used code is 422 at its ' +
          `pointer. The ${RECOVERY_CODE_COUNT} new codes replace every earlier one, used or not; the secret stays. ` +
          '409 when 2FA is not on (a pending enrolment included). ' + LOCKOUT + ' ' + NOT_SUPPORT,
        body: TwoFactorDisable,
        response: RecoveryCodes,
        errors: { 403: 'A support session', 409: 'Two-factor authentication is not on', 422: 'The code is wrong or used' },
      }),
    },
    async (request) => regenerateRecoveryCodes(app.db, app.config, request.actor, request.body),
  );

  app.post(
    '/auth/two-factor/verify',
    {
      config: { public: true },
      schema: operation({
        operationId: 'verifyTwoFactor',
        tag: TAG,
        summary: 'The second step of a sign-in: the challenge and a code (or a recovery code) for the session',
        description:
          'No bearer token. A password or email-link sign-in of an account with 2FA on answers a `challenge` instead ' +
          `of a session; it is valid ${CHALLENGE_TTL_MINUTES} minutes, at this workspace's host, once, and for at most ` +
          `${CHALLENGE_ATTEMPTS} wrong codes. ` + ONE_PROOF + ' With a current code (±30 s, each code once) or an ' +
          'unused recovery code the answer is the session the sign-in would have begun (its token, and the cookie ' +
          '`timetrack_access_token`); an unknown, used or expired challenge or a wrong code is 401. ' + LOCKOUT,
        body: TwoFactorVerify,
        response: VerifiedSession,
        errors: { 401: 'The challenge is not live, or the code is wrong or used' },
        public: true,
      }),
    },
    async (request, reply) => {
      const session = await verifySecondFactor(app.db, app.config, request.workspace, request.body, contextOf(request));
      setSessionCookie(reply, app.config, session);
      return { token: session.token, expiresAt: session.expiresAt };
    },
  );
};
