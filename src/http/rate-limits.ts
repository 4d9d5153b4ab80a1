import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { SignInFailures } from '../areas/access/index.js';
import { bearerOf } from './bearer.js';
import { signInFailures } from './sign-in-failures.js';
import { ApiError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hooks: the address limit is a hook of the root, before routing, and counts every request
     * under /api (unknown routes too); the token limit runs in the /api scope before authentication.
     * The single sign-on starts' limit is the start route's own hook (docs/rules.md §8 Single sign-on).
     */
    rateLimitHooks: { perAddress: onRequestHookHandler; perToken: onRequestHookHandler; oidcStartsPerAddress: onRequestHookHandler };
    /** Failed password checks per account and per address (docs/rules.md §7 Lockout), in the same stores as the limits. */
    signInFailures: SignInFailures;
  }
}

const WINDOW_MS = 60_000;
/** Counters kept in this process, per limit (the least recently seen key goes first). */
const LOCAL_KEYS = 5_000;
const REDIS_NAMESPACE = 'timetrack-rate-limit:';
const REDIS_CONNECT_WAIT_MS = 1_000;

/**
 * The Redis client of the counters. While Redis does not answer, a count fails at once (no queue of
 * commands waiting for a reconnection, which held every request up to a few seconds) and the
 * request is served uncounted; each failed connection attempt is logged. Startup waits up to a
 * second for the first connection, so that the first requests are counted.
 */
async function connectCounters(app: FastifyInstance, url: string): Promise<Redis> {
  // Loaded only with REDIS_URL: a single instance counts in its own memory.
  const { Redis: RedisClient } = await import('ioredis');
  const redis = new RedisClient(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (error: Error) => app.log.warn({ err: error }, 'Redis does not answer: requests are served without rate-limit counts'));
  app.addHook('onClose', async () => {
    if (redis.status === 'ready') await redis.quit();
    else redis.disconnect();
  });
  await Promise.race([once(redis, 'ready').catch(() => undefined), delay(REDIS_CONNECT_WAIT_MS, undefined, { ref: false })]);
  return redis;
}

/** Limits are kept per token by its digest, so no secret reaches the counter store. */
function tokenKey(request: FastifyRequest): string {
  const bearer = bearerOf(request);
  return bearer ? `token:${bearer.digest}` : `address:${request.ip}`;
}

/**
 * Whether the request's path is under /api, read from the request line before any routing, so that
 * the address limit counts a request whatever answers it: a route, the 404 of an unknown path, a 405.
 * An absolute-form request line (`GET http://host/api/…`) counts by its path too.
 */
function isUnderApi(request: FastifyRequest): boolean {
  let target = request.raw.url ?? '';
  if (!target.startsWith('/')) {
    try {
      target = new URL(target).pathname;
    } catch {
      return false;
    }
  }
  return target === '/api' || target.startsWith('/api/') || target.startsWith('/api?');
}

/**
 * Two limits on every /api request, per minute: one per client address and one per bearer token.
 * Over either: 429 problem+json with Retry-After. Answers carry the RateLimit-Limit/-Remaining/-Reset
 * headers of the token limit. With REDIS_URL the counters live in Redis, shared by every instance.
 *
 * The counting is @fastify/rate-limit's own (its in-process and Redis stores: a fixed window per
 * key); the hooks call the store directly rather than through the plugin's createRateLimit, whose
 * chain of promises costs more per check than the counting itself (docs/performance.md, "What each optimisation bought"). The
 * in-process store answers synchronously, so a check costs no turn of the event loop.
 */
export const rateLimits = fp(async (app: FastifyInstance) => {
  const { perAddressPerMinute, perTokenPerMinute } = app.config.rateLimit;
  const redis = app.config.redisUrl ? await connectCounters(app, app.config.redisUrl) : undefined;
  const storeOf = (kind: string): FastifyRateLimitStore =>
    redis ? new RedisStore(false, false, redis, `${REDIS_NAMESPACE}${kind}:`) : new LocalStore(false, false, LOCAL_KEYS);

  const limiter = (kind: string, max: number, key: (request: FastifyRequest) => string, setHeaders: boolean): onRequestHookHandler => {
    const store = storeOf(kind);
    const limit = String(max);
    return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      store.incr(
        key(request),
        (error, counted) => {
          // A counter store that cannot answer must not take the API down with it.
          if (error || !counted) return done();
          const reset = String(Math.ceil(counted.ttl / 1000));
          const remaining = String(Math.max(0, max - counted.current));
          if (counted.current > max) {
            return done(
              new ApiError('rate-limited', `Too many requests: at most ${max} a minute. Retry in ${reset} s.`, undefined, {
                'ratelimit-limit': limit,
                'ratelimit-remaining': remaining,
                'ratelimit-reset': reset,
                'retry-after': reset,
              }),
            );
          }
          if (setHeaders) reply.header('ratelimit-limit', limit).header('ratelimit-remaining', remaining).header('ratelimit-reset', reset);
          done();
        },
        WINDOW_MS,
        max,
      );
    };
  };

  const perAddress = limiter('address', perAddressPerMinute, (request) => request.ip, false);
  app.decorate('signInFailures', signInFailures(app.config, { redis, namespace: REDIS_NAMESPACE, localKeys: LOCAL_KEYS, attempts: storeOf('sign-in-attempt-address') }));
  app.decorate('rateLimitHooks', {
    perAddress: (request, reply, done) => (isUnderApi(request) ? perAddress.call(app, request, reply, done) : done()),
    perToken: limiter('token', perTokenPerMinute, tokenKey, true),
    // Each start stores an attempt for anyone who asks, without a token: its own, lower bound.
    oidcStartsPerAddress: limiter('oidc-start-address', app.config.oidcStartsPerAddressPerMinute, (request) => request.ip, false),
  });
});
