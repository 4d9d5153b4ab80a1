import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Empty, operation } from '../../http/schemas.js';
import { ApiKeyCreate, ApiKeyCreated, ApiKeyMap, ApiKeyParams, AuthSnapshot } from './schemas.js';
import { authSnapshot, createApiKey, ownApiKeys, revokeApiKey } from './service.js';

export const accessRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/auth',
    {
      config: { permission: 'organization:read' },
      schema: operation({
        operationId: 'getAuth',
        tag: 'Workspace',
        summary: 'Who is calling: email, workspace domain and the bearer token in use',
        response: AuthSnapshot,
      }),
    },
    async (request) => authSnapshot(request.actor, request.workspace),
  );

  app.get(
    '/api-keys',
    {
      config: { permission: 'api-keys:manage' },
      schema: operation({
        operationId: 'listApiKeys',
        tag: 'API keys',
        summary: 'The caller\'s API keys (never their secrets)',
        response: ApiKeyMap,
      }),
    },
    async (request) => {
      const keys = await ownApiKeys(app.db, request.actor);
      return Object.fromEntries(keys.map((key) => [key.id, key]));
    },
  );

  app.post(
    '/api-keys',
    {
      config: { permission: 'api-keys:write' },
      schema: operation({
        operationId: 'createApiKey',
        tag: 'API keys',
        summary: 'Create an API key for the caller; the answer holds the secret, once',
        description: 'Not with a support session (an impersonation, docs/rules.md §5): 403, it cannot create lasting credentials.',
        body: ApiKeyCreate,
        response: ApiKeyCreated,
        errors: { 403: 'A support session' },
      }),
    },
    async (request) => createApiKey(app.db, request.actor, request.body.name),
  );

  app.delete(
    '/api-keys/:apiKeyId',
    {
      config: { permission: 'api-keys:write', changesIdentity: true },
      schema: operation({
        operationId: 'deleteApiKey',
        tag: 'API keys',
        summary: 'Revoke one of the caller\'s API keys; it stops working at once',
        description: 'Not with a support session (an impersonation, docs/rules.md §5): 403, it cannot change credentials.',
        params: ApiKeyParams,
        response: Empty,
        errors: { 403: 'A support session' },
      }),
    },
    async (request) => {
      await revokeApiKey(app.db, request.actor, request.params.apiKeyId);
      return {};
    },
  );
};

