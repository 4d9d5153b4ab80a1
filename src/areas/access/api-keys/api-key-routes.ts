import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Empty, operation } from '../../../route-kit/schemas.js';
import { ApiKeyCreate, ApiKeyCreated, ApiKeyMap, ApiKeyParams } from './api-key-schemas.js';
import { API_KEYS_PER_USER } from './api-key-rules.js';
import { createApiKey, ownApiKeys, revokeApiKey } from './api-key-service.js';

/** The caller's API keys (docs/rules.md §2 Tokens): listing, creating and revoking them. */
export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api-keys',
    {
      config: { permission: 'api-keys:manage' },
      schema: operation({
        operationId: 'listApiKeys',
        tag: 'API keys',
        summary: 'The caller\'s API keys (never their secrets)',
        description:
          'Any role, and only the caller\'s own keys in this workspace, keyed by id in creation order: their names, ' +
          'prefixes, creation and last use (kept to the minute). A key\'s secret is shown only once, when it is created.',
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
        description:
          'Any role, for the caller only. The name is trimmed and must be 1–200 characters (422 otherwise). The answer ' +
          'holds the key (`ttk_…`) once: only its SHA-256 digest is stored, so it cannot be shown again. ' +
          `A user holds at most ${API_KEYS_PER_USER} API keys in a workspace: one more is 409 until a key is revoked ` +
          '(docs/rules.md §2 Tokens). ' +
          'Not with a support session (an impersonation, docs/rules.md §5): 403, it cannot create lasting credentials.',
        body: ApiKeyCreate,
        response: ApiKeyCreated,
        errors: { 403: 'A support session', 409: `The caller already holds ${API_KEYS_PER_USER} API keys in this workspace` },
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
        description:
          'Any role, for the caller\'s own keys only: another user\'s key is 404, as is one that does not exist. ' +
          'The key is refused at once on this instance and within a second on others. ' +
          'Not with a support session (an impersonation, docs/rules.md §5): 403, it cannot change credentials.',
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

