import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { findWorkspaceByDomain } from '../areas/workspace/index.js';
import type { Workspace } from '../domain/actor.js';
import { isWellFormedDomain } from '../lib/domains.js';
import { andThen, type MaybePromise } from '../lib/maybe-promise.js';
import type { Actor } from '../domain/actor.js';
import { ApiError } from '../domain/errors.js';
import '../route-kit/workspace-of.js';
import { appendRouteHook, hookOf } from './hook.js';
import { ExpiringCache, IDENTITY_TTL_MS } from './identity-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The workspace selected by the Host header; set for every /api route. */
    workspace: Workspace;
  }
  interface FastifyInstance {
    /** Recently resolved workspaces (by domain) and bearer tokens (see authenticate). */
    identity: Identity;
  }
  interface FastifyContextConfig {
    /**
     * The route's writes may change which workspace a host selects or what a token stands for
     * (a rename, a deletion, a user's role or archiving, a revoked key): its answer empties the caches.
     */
    changesIdentity?: boolean;
    /**
     * The route is also served at the bare BASE_DOMAIN host, where no workspace is selected
     * (`request.workspace` is then null): finding one's workspaces (docs/rules.md §7).
     */
    servedAtBareDomain?: boolean;
  }
}

/** What a bearer token of one workspace resolved to; authenticate keeps these. */
export interface ResolvedToken {
  /** Who the token stands for, shared by every request that sends it (frozen: never changed). */
  actor: Actor;
  /** Set for API keys: the key and when it was last used, in epoch ms (written at most once a minute). */
  apiKey?: { id: string; lastUsedMs: number | null };
  /** Set for sessions: when the session ends, in epoch ms; the cache keeps the token no longer. */
  expiresMs?: number;
  /** Set for sessions: the session and when it was last used, in epoch ms (written at most once a minute; the idle timeout counts from it). */
  session?: { id: string; lastUsedMs: number };
}

export interface Identity {
  workspaces: ExpiringCache<Workspace>;
  /** Domains that selected no workspace, so that an unknown host is not looked up on every request. */
  unknownDomains: ExpiringCache<true>;
  /** By workspace id and token digest. */
  tokens: ExpiringCache<ResolvedToken>;
  /** Forgets everything resolved so far (a write that may change a workspace, a user or a token). */
  invalidate(): void;
}

/**
 * The workspace label of a Host header under BASE_DOMAIN (`acme.localhost:3000` → `acme`), or null.
 * Only the Host header counts: X-Forwarded-Host never selects a workspace, and a request carrying
 * more than one Host header selects none.
 */
export function workspaceDomainOf(request: FastifyRequest, baseDomain: string): string | null {
  const raw = request.raw.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  const host = request.headers.host;
  if (hosts !== 1 || !host) return null;
  const match = /^([^:[\]]+?)\.?(?::\d{1,5})?$/.exec(host.toLowerCase());
  if (!match) return null;
  const hostname = match[1];
  const suffix = `.${baseDomain}`;
  if (!hostname.endsWith(suffix)) return null;
  const label = hostname.slice(0, -suffix.length);
  return isWellFormedDomain(label) ? label : null;
}

/** Whether the request's one Host header is BASE_DOMAIN itself (any port). */
export function isBareDomain(request: FastifyRequest, baseDomain: string): boolean {
  const raw = request.raw.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  const match = /^([^:[\]]+?)\.?(?::\d{1,5})?$/.exec(request.headers.host?.toLowerCase() ?? '');
  return hosts === 1 && match !== null && match[1] === baseDomain;
}

/** How many unknown domains are remembered at most (each for IDENTITY_TTL_MS). */
const UNKNOWN_DOMAINS = 10_000;

const notServed = () => new ApiError('workspace-not-found', 'No workspace is served at this host.');

/**
 * The workspace the request's host selects; 404 workspace-not-found when there is none. A domain
 * found, or found to select nothing, in the last second is not looked up again (renames and
 * deletions made here clear both caches at once; see tenancy): it is then answered at once, without
 * a promise.
 */
export function resolveWorkspace(app: FastifyInstance, request: FastifyRequest): MaybePromise<Workspace> {
  const domain = workspaceDomainOf(request, app.config.baseDomain);
  if (domain === null) throw notServed();
  const cached = app.identity?.workspaces.get(domain);
  if (cached) return cached;
  if (app.identity?.unknownDomains.get(domain)) throw notServed();
  return lookUpWorkspace(app, domain);
}

async function lookUpWorkspace(app: FastifyInstance, domain: string): Promise<Workspace> {
  const identity = app.identity as Identity | undefined;
  const ticket = identity?.workspaces.ticket();
  const unknownTicket = identity?.unknownDomains.ticket();
  const workspace = await findWorkspaceByDomain(app.db, domain);
  if (!workspace) {
    identity?.unknownDomains.set(domain, true, unknownTicket!);
    throw notServed();
  }
  identity?.workspaces.set(domain, workspace, ticket!);
  return workspace;
}

/**
 * The caches of resolved workspaces, unknown domains and tokens, decorated on the root instance: the
 * /api scope (tenancy, authenticate) and the root's not-found handler, which also resolves the host of
 * an unknown /api path, share them.
 */
export const identityCaches = fp(async (app: FastifyInstance) => {
  const identity: Identity = {
    workspaces: new ExpiringCache<Workspace>(1_000, IDENTITY_TTL_MS),
    unknownDomains: new ExpiringCache<true>(UNKNOWN_DOMAINS, IDENTITY_TTL_MS),
    tokens: new ExpiringCache<ResolvedToken>(10_000, IDENTITY_TTL_MS),
    invalidate() {
      identity.workspaces.clear();
      identity.unknownDomains.clear();
      identity.tokens.clear();
    },
  };
  app.decorate('identity', identity);
  app.decorate('workspaceOf', (request: FastifyRequest) => resolveWorkspace(app, request));
});

/**
 * Resolves the workspace before anything else, so an unknown host is 404 before any token check.
 *
 * Workspaces and tokens resolved here and in authenticate are kept for IDENTITY_TTL_MS, so a request
 * costs no identity query; so are domains that selected no workspace (at most UNKNOWN_DOMAINS of
 * them, the least recently seen going first), so a flood of requests to an unknown host costs one
 * lookup a second, not one a request. A route whose writes may change a workspace, a user or a token declares
 * `config: { changesIdentity: true }`; its authenticated answers empty both caches before they are
 * sent, so on this instance a rename, deletion, archiving or revocation holds from the next request
 * on; other instances see it within IDENTITY_TTL_MS.
 */
export const tenancy = fp(async (app: FastifyInstance) => {
  const { identity } = app;
  app.decorateRequest('workspace', null as unknown as Workspace);
  app.addHook(
    'onRequest',
    hookOf((request) => {
      let found: MaybePromise<Workspace>;
      try {
        found = resolveWorkspace(app, request);
      } catch (error) {
        // Asked only of a host that selects no workspace, so other requests pay nothing for it.
        if (request.routeOptions.config.servedAtBareDomain && isBareDomain(request, app.config.baseDomain)) return;
        throw error;
      }
      return andThen(found, (workspace) => {
        request.workspace = workspace;
      });
    }),
  );
  // Only the routes that declare it get the hook: every other request pays nothing for it.
  const invalidate: onSendHookHandler = (request, _reply, payload, done) => {
    if ((request.actor as Actor | null) !== null) identity.invalidate();
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.changesIdentity) appendRouteHook(route, 'onSend', invalidate);
  });
});
