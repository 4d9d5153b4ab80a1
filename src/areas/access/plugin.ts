import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Area } from '../area.js';
import { accessRoutes } from './routes.js';
import { ApiKey, Session } from './schemas.js';
import { linkRoutes } from './link-routes.js';
import { linkPages } from './pages.js';
import { passwordRoutes } from './password-routes.js';
import { sessionRoutes } from './session-routes.js';
import { signInRoutes } from './sign-in-routes.js';
import { oidcRoutes } from './oidc-routes.js';
import { twoFactorRoutes } from './two-factor-routes.js';

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
