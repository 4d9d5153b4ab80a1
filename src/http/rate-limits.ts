import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { bearerOf } from './bearer.js';
import { ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hooks for the /api scope: the address limit runs first, the token limit before authentication. */
    rateLimitHooks: {
      perAddress: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
      perToken: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    };
  }
}

const WINDOW_MS = 60_000;

/** Limits are kept per token by its digest, so no secret reaches the counter store. */
function tokenKey(request: FastifyRequest): string {
  const bearer = bearerOf(request);
  return bearer ? `token:${bearer.digest}` : `address:${request.ip}`;
}

/**
 * Two limits on every /api request, per minute: one per client address and one per bearer token.
 * Over either: 429 problem+json with Retry-After. Answers carry the RateLimit-Limit/-Remaining/-Reset
 * headers of the token limit. With REDIS_URL the counters live in Redis, shared by every instance.
 */
export const rateLimits = fp(async (app: FastifyInstance) => {
  const { perAddressPerMinute, perTokenPerMinute } = app.config.rateLimit;
  const redis = app.config.redisUrl ? new Redis(app.config.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));

  await app.register(rateLimit, {
    global: false,
    nameSpace: 'timetrack-rate-limit:',
    ...(redis ? { redis } : {}),
    // A counter store that cannot answer must not take the API down with it.
    skipOnError: true,
  });

  const limiter = (max: number, key: (request: FastifyRequest) => string, setHeaders: boolean) => {
    const check = app.createRateLimit({ max, timeWindow: WINDOW_MS, keyGenerator: key });
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await check(request);
      if (result.isAllowed) return;
      const headers = {
        'ratelimit-limit': String(result.max),
        'ratelimit-remaining': String(result.remaining),
        'ratelimit-reset': String(result.ttlInSeconds),
      };
      if (result.isExceeded) {
        throw new ApiError(
          'rate-limited',
          `Too many requests: at most ${result.max} a minute. Retry in ${result.ttlInSeconds} s.`,
          undefined,
          { ...headers, 'retry-after': String(result.ttlInSeconds) },
        );
      }
      if (setHeaders) reply.headers(headers);
    };
  };

  app.decorate('rateLimitHooks', {
    perAddress: limiter(perAddressPerMinute, (request) => `address:${request.ip}`, false),
    perToken: limiter(perTokenPerMinute, tokenKey, true),
  });
});
