import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Area } from '../area.js';
import { accessRoutes } from './routes.js';
import { ApiKey } from './schemas.js';
import { signInRoutes } from './sign-in-routes.js';
import { twoFactorRoutes } from './two-factor-routes.js';

/** Access: accounts, API keys, sessions and one-time sign-in tokens, and the token lookups authentication makes. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(accessRoutes);
  await app.register(signInRoutes);
  await app.register(twoFactorRoutes);
};

export const accessArea: Area = { name: 'access', routes, schemas: [ApiKey] };

export { findOrCreateAccount, findUserByApiKey, findUserBySession, insertApiKey, insertSession, touchApiKey, type TokenHolder } from './repository.js';
export { API_KEYS_PER_USER } from './rules.js';
export { createApiKey, mintApiKey, type KeyHolder } from './service.js';
export { issueSupportSignIn } from './support-sign-in.js';
export { CHALLENGE_TOKEN_PREFIX, secondFactorChallenge } from './two-factor-service.js';
