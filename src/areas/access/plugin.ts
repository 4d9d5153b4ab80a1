import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Area } from '../area.js';
import { accountRoutes } from './accounts/account-routes.js';
import { apiKeyRoutes } from './api-keys/api-key-routes.js';
import { ApiKey } from './api-keys/api-key-schemas.js';
import { startExpiredRowsPruning } from './expired-rows-pruning.js';
import { sessionRoutes } from './sessions/session-routes.js';
import { Session } from './sessions/session-schemas.js';
import { linkPages } from './sign-in/link/link-pages.js';
import { linkRoutes } from './sign-in/link/link-routes.js';
import { oneTimeSignInRoutes } from './sign-in/link/one-time-sign-in-routes.js';
import { passwordRoutes } from './sign-in/password/password-routes.js';
import { signInSettingsRoutes } from './sign-in/sign-in-settings-routes.js';
import { oidcRoutes } from './sign-in/single-sign-on/oidc-routes.js';
import { twoFactorRoutes } from './sign-in/two-factor/two-factor-routes.js';

/**
 * Access: accounts, API keys, sessions and one-time sign-in tokens, and the token lookups
 * authentication makes; the pruning of expired sign-in rows for as long as the app is up.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  // In this order: the OpenAPI document lists the operations as they are registered.
  await app.register(accountRoutes);
  await app.register(apiKeyRoutes);
  await app.register(oneTimeSignInRoutes);
  await app.register(sessionRoutes);
  await app.register(linkRoutes);
  await app.register(passwordRoutes);
  await app.register(twoFactorRoutes);
  await app.register(signInSettingsRoutes);
  await app.register(oidcRoutes);
  let pruning: ReturnType<typeof startExpiredRowsPruning> | undefined;
  app.addHook('onReady', async () => {
    pruning = startExpiredRowsPruning(app);
  });
  app.addHook('onClose', async () => {
    await pruning?.stop();
  });
};

export const accessArea: Area = { name: 'access', routes, pages: linkPages, schemas: [ApiKey, Session] };
