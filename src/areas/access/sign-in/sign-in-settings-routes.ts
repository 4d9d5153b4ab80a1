import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { operation } from '../../../route-kit/schemas.js';
import { SignInSettings, SignInSettingsUpdate } from './sign-in-settings-schemas.js';
import { changeSignInSettings, signInSettings } from './sign-in-settings-service.js';

const TAG = 'Sign-in';
const NOT_SUPPORT = 'Not with a support session (docs/rules.md §5): 403, it cannot change credentials.';

/** The workspace's sign-in settings (docs/rules.md §8): whether 2FA is required, which domains single sign-on invites. */
export const signInSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/auth/settings',
    {
      config: { permission: 'sign-in-settings:manage' },
      schema: operation({
        operationId: 'getSignInSettings',
        tag: TAG,
        summary: 'The workspace\'s sign-in settings: 2FA required, domains invited by single sign-on',
        description: 'Administrators only. ' + NOT_SUPPORT,
        response: SignInSettings,
        errors: { 403: 'Not an administrator, or a support session' },
      }),
    },
    async (request) => signInSettings(app.db, request.actor),
  );

  app.put(
    '/auth/settings',
    {
      config: { permission: 'sign-in-settings:manage', changesIdentity: true },
      schema: operation({
        operationId: 'updateSignInSettings',
        tag: TAG,
        summary: 'Require 2FA in the workspace, and invite people by email domain through single sign-on',
        description:
          'Administrators only; fields left out keep their value. With `twoFactorRequired`, a person signed in with a ' +
          'session whose account has no 2FA may only enrol (and read GET /auth and GET /organization) here: every other ' +
          'route is 403 `two-factor-required` until they do. API keys are not held (they are made by someone signed ' +
          'in). `invitationDomains` lets a person whose verified single sign-on email is at one of those domains join ' +
          'as User; each is stored lower case, once, and must be an email domain (422 at /body/invitationDomains/<i>) ' +
          'and, when the deployment sets OIDC_ALLOWED_DOMAINS, one of them (422). ' + NOT_SUPPORT,
        body: SignInSettingsUpdate,
        response: SignInSettings,
        errors: { 403: 'Not an administrator, or a support session', 422: 'A domain is malformed or not allowed by the deployment' },
      }),
    },
    async (request) => changeSignInSettings(app.db, app.config, request.actor, request.body),
  );
};
