import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { as, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { buildApp, createWorkspace } from '../support/src.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** GET /api/auth n times as the workspace's admin: every status, and the last answer. */
async function getAuthTimes(h: Harness, ws: TestWorkspace, n: number) {
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < n; i++) {
    last = await as(h, ws).get('/api/auth');
    statuses.push(last.status);
  }
  return { statuses, last: last! };
}

describeEachStore(
  'Rate limits per token',
  (h) => {
    it('the 4th request of one token within a minute is 429 problem+json with Retry-After and RateLimit headers', async () => {
      const { statuses, last } = await getAuthTimes(h, await h.workspace(), 4);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(String(last.headers['content-type'])).toMatch(/^application\/problem\+json/);
      expect(last.body).toMatchObject({ status: 429, code: 'rate-limited', type: 'urn:timetrack:problem:rate-limited' });
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
      expect(last.headers['ratelimit-limit']).toBe('3');
      expect(last.headers['ratelimit-remaining']).toBe('0');
    });

    it('counts each token on its own', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      for (let i = 0; i < 3; i++) await as(h, ws).get('/api/auth');
      expect((await as(h, ws).get('/api/auth')).status).toBe(429);
      expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
    });
  },
  { rateLimit: { perAddressPerMinute: 1_000_000, perTokenPerMinute: 3 } },
);

describeEachStore(
  'Rate limits per client address',
  (h) => {
    it('an address over its limit gets 429 whatever token it sends', async () => {
      const a = await h.workspace();
      const b = await h.workspace();
      for (let i = 0; i < 5; i++) await as(h, i % 2 ? a : b).get('/api/auth');
      const res = await as(h, a).get('/api/auth');
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('rate-limited');
    });
  },
  { rateLimit: { perAddressPerMinute: 5, perTokenPerMinute: 1_000_000 } },
);

describeEachStore(
  'Rate limits per client address, before routing',
  (h) => {
    it('requests to unknown /api routes and unknown hosts count toward the address limit: the next request is 429', async () => {
      const ws = await h.workspace();
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await as(h, ws).get(`/api/no-such-route-${i}`)).status);
      for (let i = 0; i < 2; i++) statuses.push((await h.call('GET', '/api/auth', { host: `unknown-${i}.${h.config.baseDomain}` })).status);
      expect(statuses).toEqual([404, 404, 404, 404, 404]);
      const over = await as(h, ws).get('/api/auth');
      expect(over.status).toBe(429);
      expect(over.body.code).toBe('rate-limited');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect((await as(h, ws).get('/api/no-such-route')).status).toBe(429);
    });
  },
  { rateLimit: { perAddressPerMinute: 5, perTokenPerMinute: 1_000_000 } },
);

describeEachStore(
  'Rate limits when the counter store cannot answer',
  (h) => {
    it('requests are answered, uncounted and without RateLimit headers, and the outage is logged, while Redis is unreachable', async () => {
      const { statuses, last } = await getAuthTimes(h, await h.workspace(), 3);
      // A limit of 1 would answer 429 to the second request if anything were counted.
      expect(statuses).toEqual([200, 200, 200]);
      expect(last.headers['ratelimit-limit']).toBeUndefined();
      expect(h.logs.some((line) => line.includes('Redis does not answer'))).toBe(true);
    });
  },
  // Port 1 on the loopback: nothing listens there, so every count fails.
  { redisUrl: 'redis://127.0.0.1:1', rateLimit: { perAddressPerMinute: 1, perTokenPerMinute: 1 } },
);

describeEachStore('Rate limits shared through Redis', (h) => {
  const redis = new Redis(REDIS_URL);
  afterAll(() => redis.quit());

  it('with REDIS_URL, two instances share one count: the limit holds across them', async () => {
    const config = {
      ...h.config,
      redisUrl: REDIS_URL,
      rateLimit: { perAddressPerMinute: 1_000_000, perTokenPerMinute: 4 },
    };
    // Both instances must see the same database: only a PostgreSQL URL or a SQLite file is shared.
    if (config.databaseUrl === 'sqlite::memory:') config.databaseUrl = `sqlite:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tt-')), 'db')}`;
    const one = await buildApp({ config });
    const two = await buildApp({ config });
    // A new workspace and key on every run, so counts left in Redis by an earlier run never matter.
    const created = await createWorkspace(one.db, {
      domain: `redis-${randomBytes(4).toString('hex')}`,
      name: 'Redis',
      adminEmail: 'redis@example.com',
    });
    const ws = { host: `${created.domain}.${h.config.baseDomain}` };
    const user = { token: created.apiKey };
    try {
      const send = (app: typeof one) =>
        app.inject({ method: 'GET', url: '/api/auth', headers: { host: ws.host, authorization: `Bearer ${user.token}` } });
      const statuses = [];
      for (const app of [one, two, one, two, one, two]) statuses.push((await send(app)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      const keys = await redis.keys('timetrack-rate-limit:*');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.join(' ')).not.toContain(user.token);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
