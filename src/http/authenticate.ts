import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { holderOfApiKey, holderOfSession, noteApiKeyUse, noteSessionUse } from '../areas/access/index.js';
import { findWorkspaceByDomain } from '../areas/workspace/index.js';
import type { Actor } from '../domain/actor.js';
import { ALLOWED_BEFORE_ENROLMENT, holds, SUPPORT_SESSION_DENIED, tokenKindAllows, type Permission } from '../domain/policy.js';
import { nowIso } from '../lib/time.js';
import { API_KEY_PREFIX, isTokenOf, SESSION_TOKEN_PREFIX } from '../lib/tokens.js';
import { bearerOf, type Bearer } from './bearer.js';
import { assertSameOrigin } from './csrf.js';
import { ApiError, forbidden, unauthorized } from '../domain/errors.js';
import { appendRouteHook, hookOf } from './hook.js';
import type { ResolvedToken } from './tenancy.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who acts: set for every route that is not public. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** No bearer token needed. */
    public?: boolean;
    /** The permission the route needs (src/domain/policy.ts): a role that holds it in no scope, or a support session it is withheld from, gets 403, before the body is validated. */
    permission?: Permission;
  }
}

/** lastUsedAt is kept to the minute: one write a minute per key, not one per request. */
const TOUCH_INTERVAL_MS = 60_000;

const invalidToken = () => unauthorized('The token is not valid for this workspace.');

/** A person who must enrol in 2FA before anything else here (docs/rules.md §8 Two-factor codes). */
const enrolFirst = () =>
  new ApiError('two-factor-required', 'This workspace requires two-factor authentication: enrol with POST /api/auth/two-factor first.');

/**
 * What a bearer token stands for in one workspace, from the database. Unknown, expired and revoked
 * tokens and archived or deleted users resolve to nothing.
 */
async function resolveToken(app: FastifyInstance, organizationId: string, { token, digest }: Bearer): Promise<ResolvedToken | undefined> {
  const apiKey = isTokenOf(API_KEY_PREFIX, token) ? await holderOfApiKey(app.db, organizationId, digest) : undefined;
  const session =
    !apiKey && isTokenOf(SESSION_TOKEN_PREFIX, token) ? await holderOfSession(app.db, organizationId, digest, idleSince(app)) : undefined;
  const holder = apiKey ?? session;
  if (!holder || holder.archived) return undefined;
  return {
    actor: Object.freeze({
      organizationId,
      userId: holder.userId,
      accountId: holder.accountId,
      email: holder.email,
      role: holder.role,
      token,
      tokenKind: holder.tokenKind,
      ...(session ? { sessionId: session.sessionId } : {}),
      ...(holder.mustEnrolTwoFactor ? { mustEnrolTwoFactor: true } : {}),
    }),
    ...(apiKey ? { apiKey: { id: apiKey.apiKeyId, lastUsedMs: apiKey.lastUsedAt === null ? null : Date.parse(apiKey.lastUsedAt) } } : {}),
    ...(holder.expiresAt !== undefined ? { expiresMs: Date.parse(holder.expiresAt) } : {}),
    ...(session ? { session: { id: session.sessionId, lastUsedMs: Date.parse(session.lastUsedAt) } } : {}),
  };
}

/** Sessions unused since this instant have ended (docs/rules.md §7 Sessions). */
const idleSince = (app: FastifyInstance): string => new Date(Date.now() - app.config.sessionIdleSeconds * 1000).toISOString();

/** When a session's token stops being valid: its end, or the idle timeout from its last use, whichever comes first. */
const sessionEndMs = (app: FastifyInstance, resolved: ResolvedToken): number | undefined =>
  resolved.session === undefined
    ? resolved.expiresMs
    : Math.min(resolved.expiresMs ?? Infinity, resolved.session.lastUsedMs + app.config.sessionIdleSeconds * 1000);

/**
 * Resolves the bearer token of every non-public route (401 otherwise), then the route's role
 * permission (403). A token resolved in the last IDENTITY_TTL_MS is not looked up again: the cache is
 * keyed by workspace and token digest, keeps only valid tokens (a session no longer than it lasts), and is emptied by every write on this
 * instance that may change a user or a token (see tenancy), so revocation, archiving and deletion
 * hold at once here and within a second on other instances.
 *
 * The check is a hook of each non-public route, added as the route is registered with the route's
 * permission at hand (reading `request.routeOptions` on every request builds a frozen copy of the
 * route's options). Route hooks run after the scope's, so it still runs after the workspace and the
 * rate limits; a cached token is checked without a promise.
 */
export const authenticate = fp(async (app: FastifyInstance) => {
  app.decorateRequest('actor', null as unknown as Actor);
  app.addHook('onRoute', (route) => {
    if (route.config?.public) return;
    const permission = route.config?.permission;
    appendRouteHook(route, 'onRequest', hookOf((request, reply) => authenticateRequest(app, request, reply, permission)));
  });
});

function authenticateRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  permission: Permission | undefined,
): void | Promise<void> {
  const bearer = bearerOf(request);
  if (bearer === null) throw unauthorized();
  if (bearer.fromCookie) assertSameOrigin(request, app.config, request.workspace.domain);
  const organizationId = request.workspace.id;
  const key = `${organizationId}:${bearer.digest}`;
  const resolved = app.identity.tokens.get(key);
  if (resolved === undefined) {
    return lookUpToken(app, organizationId, bearer, key).then((found) => admitAfterTouch(app, request, reply, found, permission));
  }
  return admitAfterTouch(app, request, reply, resolved, permission);
}

async function lookUpToken(app: FastifyInstance, organizationId: string, bearer: Bearer, key: string): Promise<ResolvedToken> {
  const cache = app.identity.tokens;
  const ticket = cache.ticket();
  const resolved = await resolveToken(app, organizationId, bearer);
  if (resolved === undefined) throw invalidToken();
  // A session is kept no longer than it lasts: once it ends, the next request looks it up (401).
  cache.set(key, resolved, ticket, sessionEndMs(app, resolved));
  return resolved;
}

/** Admits the caller, first recording that an API key or a session was used when its last use is a minute old. */
function admitAfterTouch(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  resolved: ResolvedToken,
  permission: Permission | undefined,
): void | Promise<void> {
  const { apiKey } = resolved;
  if (apiKey && (apiKey.lastUsedMs === null || Date.now() - apiKey.lastUsedMs >= TOUCH_INTERVAL_MS)) {
    const now = nowIso();
    apiKey.lastUsedMs = Date.parse(now);
    return noteApiKeyUse(app.db, apiKey.id, now).then(() => admit(request, reply, resolved.actor, permission));
  }
  const { session } = resolved;
  if (session && Date.now() - session.lastUsedMs >= TOUCH_INTERVAL_MS) {
    const now = nowIso();
    session.lastUsedMs = Date.parse(now);
    return noteSessionUse(app.db, session.id, now).then(() => admit(request, reply, resolved.actor, permission));
  }
  admit(request, reply, resolved.actor, permission);
}

function admit(request: FastifyRequest, reply: FastifyReply, actor: Actor, permission: Permission | undefined): void {
  request.actor = actor;
  reply.header('cache-control', 'no-store');
  if (permission && !holds(actor.role, permission, actor.tokenKind)) {
    throw tokenKindAllows(actor.tokenKind, permission) ? forbidden() : forbidden(SUPPORT_SESSION_DENIED);
  }
  if (actor.mustEnrolTwoFactor && !(permission && ALLOWED_BEFORE_ENROLMENT.has(permission))) throw enrolFirst();
}

/**
 * What a write that failed a foreign key no service expected stands for (docs/rules.md §3): something
 * it refers to was deleted meanwhile, by a concurrent request or on another instance within the
 * identity cache's second. Asked of the database afresh: the workspace gone (or moved to another
 * host) is 404 workspace-not-found, the token's user (or the token) gone is 401, anything else is
 * 404 for the record the write named. The caches are emptied, so the next request sees the deletion.
 */
export async function deletedMeanwhile(app: FastifyInstance, request: FastifyRequest): Promise<ApiError> {
  app.identity.invalidate();
  const workspace = (request.workspace as typeof request.workspace | null) ?? undefined;
  if (workspace !== undefined && (await findWorkspaceByDomain(app.db, workspace.domain))?.id !== workspace.id) {
    return new ApiError('workspace-not-found', 'No workspace is served at this host.');
  }
  const bearer = bearerOf(request);
  if (workspace !== undefined && (request.actor as Actor | null) !== null && bearer !== null) {
    if ((await resolveToken(app, workspace.id, bearer)) === undefined) return invalidToken();
  }
  return new ApiError('not-found', 'A record this change refers to was deleted meanwhile.');
}
