import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Area } from '../area.js';
import { accessRoutes } from './api-keys/api-key-routes.js';
import { ApiKey, Session } from './api-keys/api-key-schemas.js';
import { linkRoutes } from './sign-in/link/link-routes.js';
import { linkPages } from './sign-in/link/link-pages.js';
import { passwordRoutes } from './sign-in/password/password-routes.js';
import { sessionRoutes } from './sessions/session-routes.js';
import { signInRoutes } from './sign-in/link/one-time-sign-in-routes.js';
import { oidcRoutes } from './sign-in/single-sign-on/oidc-routes.js';
import { twoFactorRoutes } from './sign-in/two-factor/two-factor-routes.js';

/** Access: accounts, API keys, sessions and one-time sign-in tokens, and the token lookups authentication makes. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(accessRoutes);
  await app.register(signInRoutes);
  await app.register(sessionRoutes);
  await app.register(linkRoutes);
  await app.register(passwordRoutes);
  await app.register(twoFactorRoutes);
  await app.register(oidcRoutes);
};

export const accessArea: Area = { name: 'access', routes, pages: linkPages, schemas: [ApiKey, Session] };
