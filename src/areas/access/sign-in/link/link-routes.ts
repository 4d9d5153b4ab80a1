import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answerNoSoonerThan } from '../../../../route-kit/answer-floor.js';
import { Empty, operation } from '../../../../route-kit/schemas.js';
import { requestLink, requestWorkspaceList } from './link-service.js';
import { LINK_MAILS_PER_ADDRESS_HOUR } from './link-rules.js';
import { EmailBody } from './link-schemas.js';

const SAME_ANSWER =
  'The answer is `{}`, the same and in the same time whether or not the address is known (no account enumeration, ' +
  `docs/rules.md §7): only the outbox shows a difference. A user holds at most ${LINK_MAILS_PER_ADDRESS_HOUR} sign-in and ` +
  `reset links that still work (a used or expired link frees its place), and an address is mailed ${LINK_MAILS_PER_ADDRESS_HOUR} workspace lists an hour; past that nothing is mailed, with the same answer. An \`email\` that is not an email address is 422 ("must be an email address").`;

/** The two links mailed to an address of this workspace, each redeemed by POST /auth/one-time. */
const WORKSPACE_LINKS = [
  {
    url: '/auth/email-link',
    purpose: 'sign-in',
    operationId: 'requestSignInLink',
    summary: 'Mail a one-time sign-in link to an address of this workspace',
    description:
      'No bearer token. When the email belongs to an unarchived user of this workspace, a `signInLink` message ' +
      'is queued to it with a link that works once, within 15 minutes, at this workspace only: it opens a page ' +
      'whose button redeems it (POST /auth/one-time) and begins a session. ',
  },
  {
    url: '/auth/password-reset',
    purpose: 'password-reset',
    operationId: 'requestPasswordReset',
    summary: 'Mail a one-time password-reset link to an address of this workspace',
    description:
      'No bearer token. When the email belongs to an unarchived user of this workspace, a `passwordReset` message ' +
      'is queued to it with a link that works once, within 15 minutes: redeemed (POST /auth/one-time, or the page ' +
      'it opens) it begins a session in which PUT /auth/password takes a new password without the current one ' +
      'for 10 minutes. The old password keeps working until then. ',
  },
] as const;

/** Mailed links: signing in by email, resetting a password, finding one's workspaces. */
export const linkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const link of WORKSPACE_LINKS) {
    app.post(
      link.url,
      {
        config: { public: true },
        schema: operation({
          operationId: link.operationId,
          tag: 'Sign-in',
          summary: link.summary,
          description: link.description + SAME_ANSWER,
          body: EmailBody,
          response: Empty,
          public: true,
        }),
      },
      async (request, reply) => {
        await requestLink(app.db, app.config, request.workspace, request.body.email, link.purpose);
        await answerNoSoonerThan(reply, app.config.enumerationFloorMs);
        return {};
      },
    );
  }

  app.post(
    '/auth/find-workspaces',
    {
      config: { public: true, servedAtBareDomain: true },
      schema: operation({
        operationId: 'findWorkspaces',
        tag: 'Sign-in',
        summary: 'Mail an address the list of workspaces it belongs to',
        description:
          'No bearer token. Served at the bare BASE_DOMAIN host (where no workspace is selected) as well as at any ' +
          'workspace\'s host. When the email is an unarchived user of one or more workspaces, a `workspaceList` ' +
          'message is queued to it naming each workspace with its address. ' +
          SAME_ANSWER,
        body: EmailBody,
        response: Empty,
        public: true,
      }),
    },
    async (request, reply) => {
      await requestWorkspaceList(app.db, app.config, request.body.email);
      await answerNoSoonerThan(reply, app.config.enumerationFloorMs);
      return {};
    },
  );
};
