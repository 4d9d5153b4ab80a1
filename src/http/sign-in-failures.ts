import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { FailureKeys, SignInFailures } from '../areas/access/index.js';
import type { Config } from '../config.js';

/** Failures counted per key in fixed windows; a key at its limit is locked until its window ends. */
interface FailureCounts {
  /**
   * Counts one failure on every key at once, but only when none is at its limit: 0 then, else the
   * milliseconds left of the longest lock. Atomic, so checks made at once never pass a limit.
   */
  reserve(keys: string[], limits: number[]): Promise<number>;
  /** Takes back one failure of each key (a reservation whose password was right). */
  release(keys: string[]): Promise<void>;
}

/** Counts kept in this process: one turn of the event loop, so no other check comes between. */
function localCounts(windowMs: number, capacity: number): FailureCounts {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const live = (key: string, now: number) => {
    const window = windows.get(key);
    return window !== undefined && window.endsAt > now ? window : undefined;
  };
  return {
    async reserve(keys, limits) {
      const now = Date.now();
      const lockedFor = Math.max(0, ...keys.map((key, i) => {
        const window = live(key, now);
        return window !== undefined && window.count >= limits[i] ? window.endsAt - now : 0;
      }));
      if (lockedFor > 0) return lockedFor;
      for (const key of keys) {
        const window = live(key, now) ?? { count: 0, endsAt: now + windowMs };
        window.count += 1;
        // Re-inserted last, so the least recently counted key is the first the capacity drops.
        windows.delete(key);
        windows.set(key, window);
        if (windows.size > capacity) windows.delete(windows.keys().next().value!);
      }
      return 0;
    },
    async release(keys) {
      const now = Date.now();
      for (const key of keys) {
        const window = live(key, now);
        if (window !== undefined && window.count > 0) window.count -= 1;
      }
    },
  };
}

/** KEYS: the counters; ARGV: the window in ms, then each key's limit. Answers 0 or the ms left of a lock. */
const RESERVE_SCRIPT = `
local locked = 0
for i, key in ipairs(KEYS) do
  if (tonumber(redis.call('GET', key)) or 0) >= tonumber(ARGV[i + 1]) then
    locked = math.max(locked, redis.call('PTTL', key), 1)
  end
end
if locked > 0 then return locked end
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
end
return 0
`;

const RELEASE_SCRIPT = `
for _, key in ipairs(KEYS) do
  if (tonumber(redis.call('GET', key)) or 0) > 0 then redis.call('DECR', key) end
end
return 0
`;

/** Counts shared by every instance: one script checks and counts every key, which Redis runs alone. */
function redisCounts(redis: Redis, windowMs: number): FailureCounts {
  return {
    async reserve(keys, limits) {
      return Number(await redis.eval(RESERVE_SCRIPT, keys.length, ...keys, windowMs, ...limits));
    },
    async release(keys) {
      await redis.eval(RELEASE_SCRIPT, keys.length, ...keys);
    },
  };
}

/**
 * Failed password checks (docs/rules.md §7 Lockout), counted per account (its email's digest) and per
 * client address in a fixed window of SIGN_IN_LOCKOUT_SECONDS, in Redis when configured. A failure is
 * reserved before the password is checked and given back when it was right, so that however many checks
 * arrive at once, no more than a limit's worth are made. Every password check, right or wrong, is
 * counted per client address in a minute too: a check is the one request whose cost is set on purpose
 * high, so one caller asking for many would take the CPU from everyone else's requests. A store that
 * cannot answer locks nobody, as the request limits serve uncounted.
 */
export function signInFailures(
  config: Config,
  stores: { redis: Redis | undefined; namespace: string; localKeys: number; attempts: FastifyRateLimitStore },
): SignInFailures {
  const { perAccount, perAddress, windowSeconds } = config.signInLockout;
  const attemptsPerAddress = config.signInAttemptsPerAddressPerMinute;
  const { redis, namespace, attempts } = stores;
  const counts = redis ? redisCounts(redis, windowSeconds * 1000) : localCounts(windowSeconds * 1000, stores.localKeys);
  const counterKeys = (keys: FailureKeys) => [`${namespace}sign-in-account:${keys.account}`, `${namespace}sign-in-address:${keys.address}`];
  return {
    async reserveFailure(keys) {
      const lockedMs = await counts.reserve(counterKeys(keys), [perAccount, perAddress]).catch(() => 0);
      return lockedMs > 0 ? Math.ceil(lockedMs / 1000) : 0;
    },
    async releaseFailure(keys) {
      await counts.release(counterKeys(keys)).catch(() => undefined);
    },
    attempt(keys) {
      return new Promise<number>((resolve) => {
        attempts.incr(
          keys.address,
          (error, counted) => {
            // The count includes this check: it is refused when it is one more than the minute allows.
            resolve(error || !counted || counted.current <= attemptsPerAddress ? 0 : Math.max(1, Math.ceil(counted.ttl / 1000)));
          },
          60_000,
          attemptsPerAddress,
        );
      });
    },
  };
}
