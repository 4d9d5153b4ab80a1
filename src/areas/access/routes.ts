import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../domain/errors.js';
import { Empty, operation } from '../../http/schemas.js';
import { cleanName } from '../../lib/names.js';
import { API_KEY_PREFIX, newToken } from '../../lib/tokens.js';
import { deleteApiKey, insertApiKey, listApiKeys } from './repository.js';
import { ApiKeyCreate, ApiKeyCreated, ApiKeyMap, ApiKeyParams, AuthSnapshot } from './schemas.js';

export const accessRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/auth',
    {
      schema: operation({
        operationId: 'getAuth',
        tag: 'Workspace',
        summary: 'Who is calling: email, workspace domain and the bearer token in use',
        response: AuthSnapshot,
      }),
    },
    async (request) => ({
      domain: request.workspace.domain,
      email: request.actor.email,
      token: request.actor.token,
    }),
  );

  app.get(
    '/api-keys',
    {
      schema: operation({
        operationId: 'listApiKeys',
        tag: 'API keys',
        summary: 'The caller\'s API keys (never their secrets)',
        response: ApiKeyMap,
      }),
    },
    async (request) => {
      const keys = await listApiKeys(app.db, request.actor.userId);
      return Object.fromEntries(keys.map((key) => [key.id, key]));
    },
  );

  app.post(
    '/api-keys',
    {
      schema: operation({
        operationId: 'createApiKey',
        tag: 'API keys',
        summary: 'Create an API key for the caller; the answer holds the secret, once',
        body: ApiKeyCreate,
        response: ApiKeyCreated,
      }),
    },
    async (request) => {
      const key = newToken(API_KEY_PREFIX);
      const record = await insertApiKey(app.db, {
        organizationId: request.workspace.id,
        userId: request.actor.userId,
        name: cleanName(request.body.name, '/body/name'),
        token: key,
      });
      return { ...record, key };
    },
  );

  app.delete(
    '/api-keys/:apiKeyId',
    {
      schema: operation({
        operationId: 'deleteApiKey',
        tag: 'API keys',
        summary: 'Revoke one of the caller\'s API keys; it stops working at once',
        params: ApiKeyParams,
        response: Empty,
      }),
    },
    async (request) => {
      if (!(await deleteApiKey(app.db, request.actor.userId, request.params.apiKeyId))) throw notFound('API key');
      return {};
    },
  );
};

