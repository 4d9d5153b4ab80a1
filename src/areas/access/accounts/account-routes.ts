import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { operation } from '../../../route-kit/schemas.js';
import { AuthSnapshot } from './account-schemas.js';
import { authSnapshot } from './account-service.js';

/** Who is calling (GET /auth). */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/auth',
    {
      config: { permission: 'organization:read' },
      schema: operation({
        operationId: 'getAuth',
        tag: 'Workspace',
        summary: 'Who is calling: email, workspace domain, the bearer token in use, user id and role',
        description:
          'Any role. Answers the domain of this workspace, the email of the calling user and the bearer token the ' +
          'request carried (an API key or a session access token), as sent; and the caller\'s `userId` (their id in ' +
          'GET /users) and `role` (`Administrator` or `User`) in this workspace. A support session (docs/rules.md §5) ' +
          'answers the email, id and role of the user it acts as.',
        response: AuthSnapshot,
      }),
    },
    async (request) => authSnapshot(request.actor, request.workspace),
  );
};
