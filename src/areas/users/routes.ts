import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sendRendered } from '../../route-kit/json-answer.js';
import { Empty, operation } from '../../route-kit/schemas.js';
import { inviteUser } from './invite-service.js';
import { User, UserInvite, UserMap, UserParams, UserUpdate } from './schemas.js';
import { changeUser, removeUser, user, userDirectory } from './service.js';

const TAG = 'Users';

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users',
    {
      config: { permission: 'users:read' },
      schema: operation({
        operationId: 'listUsers',
        tag: TAG,
        summary: 'The workspace directory: every user, by id',
        description: 'Everyone may read it. Archived users are included (archived: true).',
        response: UserMap,
      }),
    },
    async (request, reply) => {
      const entries = await userDirectory(app.db, request.actor);
      return sendRendered(reply, entries === null ? [] : [entries]);
    },
  );

  app.post(
    '/users',
    {
      config: { permission: 'users:invite' },
      schema: operation({
        operationId: 'inviteUser',
        tag: TAG,
        summary: 'Invite a user by email',
        description:
          'Administrators only. A new email gets an account (if it has none yet) and a user with role User unless ' +
          'given. An email already in the workspace (any case) answers that same user as it is (200): name, role, ' +
          'title and archived are not changed by a re-invitation (use PUT /users/{userId}); it is never duplicated, ' +
          'also when invited concurrently. Every invitation, first or repeated, writes an `invitation` message to ' +
          'the outbox in the same transaction; its link is the workspace address built from PUBLIC_URL. A support ' +
          'session (an impersonation, docs/rules.md §5) cannot grant a role: inviting with role Administrator is 403 ' +
          'for it (checked before the email is looked up).',
        body: UserInvite,
        response: Type.Ref(User),
        errors: {
          403: 'Not an administrator, or a support session inviting an Administrator',
          422:
            'Also: an `email` that is not an email address (one @, a local part without spaces, quotes or brackets, a ' +
            'domain of dot-separated labels; spaces around it are trimmed), a `name` blank or over 200 characters once trimmed',
        },
      }),
    },
    async (request) => inviteUser(app.db, request.actor, request.workspace, app.config, request.body),
  );

  app.get(
    '/users/:userId',
    {
      config: { permission: 'users:read' },
      schema: operation({
        operationId: 'getUser',
        tag: TAG,
        summary: 'One user of the workspace',
        description: 'Any role reads any user of the workspace, archived ones included. An unknown id is 404.',
        params: UserParams,
        response: Type.Ref(User),
      }),
    },
    async (request) => user(app.db, request.actor, request.params.userId),
  );

  app.put(
    '/users/:userId',
    {
      config: { permission: 'users:update', changesIdentity: true },
      schema: operation({
        operationId: 'updateUser',
        tag: TAG,
        summary: 'Change a user\'s profile, role or archived flag',
        description:
          'Administrators change anyone\'s role, archived, name, avatar, phone and title. A User changes only their ' +
          'own name, avatar, phone and title: another user, or role/archived in the body at all (even unchanged), is ' +
          '403. The last unarchived administrator can be neither demoted nor archived (409). Archiving takes effect ' +
          'at once: the user\'s API keys and sessions answer 401 from then on. A support session (an impersonation, ' +
          'docs/rules.md §5) cannot change a role: role in its body at all (even unchanged) is 403.',
        params: UserParams,
        body: UserUpdate,
        response: Type.Ref(User),
        errors: {
          403: 'A User changing someone else, or role or archived; a support session sending role',
          409: 'Would demote or archive the last active administrator',
          422: 'Also: a `name` blank or over 200 characters once trimmed',
        },
      }),
    },
    async (request) => changeUser(app.db, request.actor, request.params.userId, request.body),
  );

  app.delete(
    '/users/:userId',
    {
      config: { permission: 'users:delete', changesIdentity: true },
      schema: operation({
        operationId: 'deleteUser',
        tag: TAG,
        summary: 'Remove a user and their data from the workspace, permanently',
        description:
          'Administrators only. In one transaction removes the user with their activities, project memberships ' +
          '(and the revenue rates of those), cost rates, reports, preferences, API keys, timesheet locks and ' +
          'requests. The account (the person) stays, with its users in other workspaces. The last unarchived ' +
          'administrator cannot be deleted (409).',
        params: UserParams,
        response: Empty,
        errors: { 403: 'Not an administrator', 409: 'The last active administrator' },
      }),
    },
    async (request) => {
      await removeUser(app.db, request.actor, request.params.userId);
      return {};
    },
  );
};
