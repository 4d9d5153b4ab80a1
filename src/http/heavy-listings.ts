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
    /**
     * A report run (a summary): bounded as heavy listings are, LISTING_CONCURRENCY_PER_TOKEN per token
     * and LISTING_CONCURRENCY_PER_WORKSPACE per workspace, counted apart from them, so that a flood of
     * runs cannot take the database's and the process's time from other workspaces (docs/rules.md §6
     * Reports, "Runs at once").
     */
    reportRun?: boolean;
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
 * Report runs are bounded alike, with counts of their own (route config `reportRun`).
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
  const listings = concurrencyBound({ perToken, perWorkspace, what: 'such listings', instead: 'or read pages with limit' });
  const reportRuns = concurrencyBound({ perToken, perWorkspace: app.config.listingConcurrency.perWorkspace, what: 'report runs', instead: 'or narrow the report' });

  const counted = (_request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    otherRequestStarted();
    whenClosed(reply, otherRequestEnded);
    done();
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.heavyListing) return appendRouteHook(route, 'preHandler', listings);
    appendRouteHook(route, 'onRequest', counted);
    if (route.config?.reportRun) appendRouteHook(route, 'preHandler', reportRuns);
  });
});

interface Bound {
  perToken: number;
  perWorkspace: number;
  /** What the 429 says runs at once, and what else the client may do. */
  what: string;
  instead: string;
}

/**
 * A preHandler that lets at most `perToken` requests of one token (or address) and `perWorkspace`
 * of one workspace run at once, each from its handler's start until its answer is written out or its
 * connection closes; beyond, 429 with Retry-After.
 */
function concurrencyBound({ perToken, perWorkspace, what, instead }: Bound) {
  const running = new Map<string, number>();
  const take = (key: string) => running.set(key, (running.get(key) ?? 0) + 1);
  const give = (key: string) => {
    const left = (running.get(key) ?? 1) - 1;
    if (left === 0) running.delete(key);
    else running.set(key, left);
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    const tokenKey = `token:${bearerOf(request)?.digest ?? request.ip}`;
    const workspaceKey = `workspace:${request.actor.organizationId}`;
    const overToken = (running.get(tokenKey) ?? 0) >= perToken;
    if (overToken || (running.get(workspaceKey) ?? 0) >= perWorkspace) {
      const detail = overToken
        ? `At most ${perToken} ${what} of one token run at once. Retry in ${HEAVY_LISTING_RETRY_SECONDS} s, ${instead}.`
        : `At most ${perWorkspace} ${what} of one workspace run at once. Retry in ${HEAVY_LISTING_RETRY_SECONDS} s, ${instead}.`;
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
}
