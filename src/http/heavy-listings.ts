import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../domain/errors.js';
import { otherRequestEnded, otherRequestStarted } from '../db/giving-way.js';
import { bearerOf } from './bearer.js';
import { whenClosed } from '../route-kit/when-closed.js';
import { appendRouteHook, type HookDone } from './hook.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A listing whose answer can be as long as the history (GET /activities): at most
     * LISTING_CONCURRENCY_PER_TOKEN of them run at once per token and LISTING_CONCURRENCY_PER_WORKSPACE
     * per workspace (on PostgreSQL at most LONG_READS_PER_WORKSPACE), in this instance; beyond either, 429
     * with Retry-After (docs/rules.md §6, "Listing activities").
     */
    heavyListing?: boolean;
  }
}

/** Seconds a client is told to wait after a 429 of this bound: a listing usually ends well within it. */
export const HEAVY_LISTING_RETRY_SECONDS = 1;

/**
 * Bounds the heavy listings in flight, per token and per workspace. A listing holds its places from
 * its handler's start until its answer is written out or its connection closes, so a client that
 * does not read its answer keeps holding them: it cannot open more than its share, nor let one
 * workspace's listings take every database connection and the server's memory from the others (nor,
 * on PostgreSQL, two or three workspaces' listings every long-read connection).
 * The counts are of this process (each instance bounds its own listings).
 *
 * It also counts the other requests in flight, which a long listing gives way to between its pieces
 * (db/giving-way.ts).
 */
export const heavyListings = fp(async (app: FastifyInstance) => {
  const { perToken } = app.config.listingConcurrency;
  // On PostgreSQL each listing may hold a long-read connection: no workspace may hold a large share of them (docs/durability.md §7).
  const perWorkspace =
    app.store.dialect === 'postgres'
      ? Math.min(app.config.listingConcurrency.perWorkspace, app.config.longReadsPerWorkspace)
      : app.config.listingConcurrency.perWorkspace;
  const running = new Map<string, number>();
  const take = (key: string) => running.set(key, (running.get(key) ?? 0) + 1);
  const give = (key: string) => {
    const left = (running.get(key) ?? 1) - 1;
    if (left === 0) running.delete(key);
    else running.set(key, left);
  };

  const bound = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    const tokenKey = `token:${bearerOf(request)?.digest ?? request.ip}`;
    const workspaceKey = `workspace:${request.actor.organizationId}`;
    const overToken = (running.get(tokenKey) ?? 0) >= perToken;
    if (overToken || (running.get(workspaceKey) ?? 0) >= perWorkspace) {
      const detail = overToken
        ? `At most ${perToken} such listings of one token run at once. Retry in ${HEAVY_LISTING_RETRY_SECONDS} s, or read pages with limit.`
        : `At most ${perWorkspace} such listings of one workspace run at once. Retry in ${HEAVY_LISTING_RETRY_SECONDS} s, or read pages with limit.`;
      return done(new ApiError('rate-limited', detail, undefined, { 'retry-after': String(HEAVY_LISTING_RETRY_SECONDS) }));
    }
    take(tokenKey);
    take(workspaceKey);
    whenClosed(reply, () => {
      give(tokenKey);
      give(workspaceKey);
    });
    done();
  };

  const counted = (_request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    otherRequestStarted();
    whenClosed(reply, otherRequestEnded);
    done();
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.heavyListing) appendRouteHook(route, 'preHandler', bound);
    else appendRouteHook(route, 'onRequest', counted);
  });
});
