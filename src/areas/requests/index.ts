import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Area } from '../area.js';
import { requestRoutes } from './routes.js';
import { WorkflowRequest, WorkflowRequestDetail } from './schemas.js';
import { signInRoutes } from './sign-in-routes.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(requestRoutes);
  await app.register(signInRoutes);
};

/**
 * Workflow requests (approval and assignment), and POST /auth/one-time: the redemption of the
 * sign-in link a resolved impersonation request sends, which lives here beside the request that
 * issues it and the one_time_tokens table both share.
 */
export const requestsArea: Area = { name: 'requests', routes, schemas: [WorkflowRequest, WorkflowRequestDetail] };
