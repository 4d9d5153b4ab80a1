import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { findUserByApiKey, findUserBySession, touchApiKey, type Caller } from '../areas/access/repository.js';
import { fromDbBool } from '../db/values.js';
import { nowIso } from '../lib/time.js';
import { API_KEY_PREFIX, isTokenOf, SESSION_TOKEN_PREFIX } from '../lib/tokens.js';
import { forbidden, unauthorized } from './errors.js';
import { can, type Permission, type Role } from './permissions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user; set for every route that is not public. */
    caller: Caller;
  }
  interface FastifyContextConfig {
    /** No bearer token needed. */
    public?: boolean;
    /** The role permission the route needs (403 otherwise), checked before the body is validated. */
    permission?: Permission;
  }
}

/** lastUsedAt is kept to the minute: one write a minute per key, not one per request. */
const TOUCH_INTERVAL_MS = 60_000;

export const authenticate = fp(async (app: FastifyInstance) => {
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.public) return;
    const token = bearerToken(request.headers.authorization);
    if (token === null) throw unauthorized();
    const organizationId = request.workspace.id;
    const apiKey = isTokenOf(API_KEY_PREFIX, token) ? await findUserByApiKey(app.db, organizationId, token) : undefined;
    const found =
      apiKey ?? (isTokenOf(SESSION_TOKEN_PREFIX, token) ? await findUserBySession(app.db, organizationId, token) : undefined);
    if (!found || fromDbBool(found.archived)) throw unauthorized('The token is not valid for this workspace.');
    const caller: Caller = {
      userId: found.user_id,
      accountId: found.account_id,
      email: found.email,
      role: found.role as Role,
      token,
    };
    if (apiKey) {
      const now = nowIso();
      const last = apiKey.last_used_at;
      if (last === null || Date.parse(now) - Date.parse(last) >= TOUCH_INTERVAL_MS) {
        await touchApiKey(app.db, apiKey.api_key_id, now);
      }
    }
    request.caller = caller;
    reply.header('cache-control', 'no-store');
    if (config.permission && !can(caller.role, config.permission)) throw forbidden();
  });
});

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  return match ? match[1] : null;
}
