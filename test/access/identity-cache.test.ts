import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { ExpiringCache, IDENTITY_TTL_MS, toDbBool } from '../support/src.js';

/** A session token of the workspace's admin account, made as sign-in makes one. */
const sessionOf = (h: Harness, ws: TestWorkspace): Promise<string> => make.session(h, ws.admin.userId);

/** Polls until the answer has the status, for at most a little more than the cache's lifetime; returns the wait. */
async function waitForStatus(call: () => Promise<{ status: number }>, status: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const res = await call();
    if (res.status === status) return Date.now() - started;
    if (Date.now() - started > IDENTITY_TTL_MS + 500) return Infinity;
    await sleep(50);
  }
}

describeEachStore('Tokens and workspaces resolved from the cache', (h) => {
  it('only the writes of routes that declare an identity change empty the caches: a new activity or the organization\'s settings keep them, a user\'s update empties them', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
    // Archived behind the server's back: only a lookup in the database can see it, so a 200 is a cached answer.
    await h.app.db.updateTable('users').set({ archived: toDbBool(true) }).where('id', '=', user.userId).execute();
    const activity = { name: 'kept', startedAt: '2026-07-01T09:00:00Z', endedAt: '2026-07-01T10:00:00Z' };
    expect((await as(h, ws).post('/api/activities', activity)).status).toBe(200);
    expect((await as(h, ws).put('/api/organization', { name: 'Still cached' })).status).toBe(200);
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
    expect((await as(h, ws).put(`/api/users/${ws.admin.userId}`, { name: 'Renamed Admin' })).status).toBe(200);
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(401);
  });

  it('a revoked API key is 401 on the very next request, though it was just used', async () => {
    const ws = await h.workspace();
    const created = (await as(h, ws).post('/api/api-keys', { name: 'soon revoked' })).body;
    const key = { ...ws.admin, token: created.key };
    expect((await as(h, ws, key).get('/api/auth')).status).toBe(200);
    expect((await as(h, ws).delete(`/api/api-keys/${created.id}`)).status).toBe(200);
    const res = await as(h, ws, key).get('/api/auth');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it('an archived user is 401 on the very next request, with an API key and with a session token', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws, { role: 'Administrator' });
    const session = await sessionOf(h, { ...ws, admin: user });
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
    expect((await h.call('GET', '/api/auth', { host: ws.host, token: session })).status).toBe(200);
    expect((await as(h, ws).put(`/api/users/${user.userId}`, { archived: true })).status).toBe(200);
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(401);
    expect((await h.call('GET', '/api/auth', { host: ws.host, token: session })).status).toBe(401);
  });

  it('a deleted user is 401 on the very next request', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
    expect((await as(h, ws).delete(`/api/users/${user.userId}`)).status).toBe(200);
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(401);
  });

  it('a demoted administrator loses administrator routes on the very next request', async () => {
    const ws = await h.workspace();
    const other = await h.user(ws, { role: 'Administrator' });
    expect((await as(h, ws, other).get('/api/timesheets/locks')).status).toBe(200);
    expect((await as(h, ws).put(`/api/users/${other.userId}`, { role: 'User' })).status).toBe(200);
    expect((await as(h, ws, other).get('/api/timesheets/locks')).status).toBe(403);
  });

  it('after a rename the old host is 404 and the new one serves, on the very next request', async () => {
    const ws = await h.workspace();
    expect((await as(h, ws).get('/api/organization')).status).toBe(200);
    const domain = `${ws.domain}-renamed`;
    expect((await as(h, ws).post('/api/organization/rename', { domain })).status).toBe(200);
    const old = await as(h, ws).get('/api/organization');
    expect(old.status).toBe(404);
    expect(old.body.code).toBe('workspace-not-found');
    expect((await as(h, { ...ws, domain, host: `${domain}.${ws.host.slice(ws.domain.length + 1)}` }).get('/api/organization')).status).toBe(200);
  });

  it('a deleted workspace is 404 on the very next request', async () => {
    const ws = await h.workspace();
    expect((await as(h, ws).get('/api/organization')).status).toBe(200);
    expect((await as(h, ws).delete('/api/organization')).status).toBe(200);
    expect((await as(h, ws).get('/api/organization')).status).toBe(404);
  });

  it('a session that ends while its token is cached is 401 on the next request: the cache keeps a session no longer than it lasts', async () => {
    const ws = await h.workspace();
    const lifetimeMs = 600;
    const ends = Date.now() + lifetimeMs;
    const session = await make.session(h, ws.admin.userId, { expiresInMs: lifetimeMs });
    expect((await h.call('GET', '/api/auth', { host: ws.host, token: session })).status).toBe(200);
    // Past the session's end, but well within the cache's lifetime of the lookup above.
    await sleep(Math.max(0, ends - Date.now()) + 50);
    const res = await h.call('GET', '/api/auth', { host: ws.host, token: session });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it('an unknown host is remembered for a second: a domain that starts selecting a workspace behind the server\'s back is still 404 on every /api path, one renamed to here is served at once', async () => {
    const ws = await h.workspace();
    const later = `${ws.domain}-later`;
    const laterHost = `${later}.${h.config.baseDomain}`;
    const first = await h.call('GET', '/api/organization', { host: laterHost, token: ws.admin.token });
    expect(first.status).toBe(404);
    expect(first.body.code).toBe('workspace-not-found');
    // Behind the server's back: only a lookup in the database can see it, so a 404 is a remembered answer.
    await h.app.db.updateTable('organizations').set({ domain: later }).where('id', '=', ws.organizationId).execute();
    const known = await h.call('GET', '/api/organization', { host: laterHost, token: ws.admin.token });
    expect(known.status).toBe(404);
    expect(known.body.code).toBe('workspace-not-found');
    const unrouted = await h.call('GET', '/api/no-such-route', { host: laterHost, token: ws.admin.token });
    expect(unrouted.status).toBe(404);
    expect(unrouted.body.code).toBe('workspace-not-found');

    // A rename through this instance forgets unknown hosts too: the new domain serves on the very next request.
    const other = await h.workspace();
    const next = `${other.domain}-next`;
    const nextHost = `${next}.${h.config.baseDomain}`;
    expect((await h.call('GET', '/api/organization', { host: nextHost, token: other.admin.token })).status).toBe(404);
    expect((await as(h, other).post('/api/organization/rename', { domain: next })).status).toBe(200);
    const renamed = await h.call('GET', '/api/organization', { host: nextHost, token: other.admin.token });
    expect(renamed.status).toBe(200);
    expect(renamed.body.id).toBe(other.organizationId);
  });

  it('a change made outside this instance (another instance, the CLI, the database) holds within a second', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
    await h.app.db.updateTable('users').set({ archived: toDbBool(true) }).where('id', '=', user.userId).execute();
    expect(await waitForStatus(() => as(h, ws, user).get('/api/auth'), 401)).toBeLessThanOrEqual(IDENTITY_TTL_MS + 100);

    const key = await h.user(ws);
    expect((await as(h, ws, key).get('/api/auth')).status).toBe(200);
    await h.app.db.deleteFrom('api_keys').where('user_id', '=', key.userId).execute();
    expect(await waitForStatus(() => as(h, ws, key).get('/api/auth'), 401)).toBeLessThanOrEqual(IDENTITY_TTL_MS + 100);

    await h.app.db.updateTable('organizations').set({ domain: `${ws.domain}-moved` }).where('id', '=', ws.organizationId).execute();
    expect(await waitForStatus(() => as(h, ws).get('/api/organization'), 404)).toBeLessThanOrEqual(IDENTITY_TTL_MS + 100);
  });

  it('a token is looked up once while it is fresh: lastUsedAt is still written at most once a minute', async () => {
    const ws = await h.workspace();
    const created = (await as(h, ws).post('/api/api-keys', { name: 'busy' })).body;
    const key = { ...ws.admin, token: created.key };
    const results = await Promise.all(Array.from({ length: 20 }, () => as(h, ws, key).get('/api/auth')));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const used = (await as(h, ws).get('/api/api-keys')).body[created.id];
    expect(used.lastUsedAt).not.toBeNull();
    expect((await as(h, ws, key).get('/api/auth')).status).toBe(200);
    const again = (await as(h, ws).get('/api/api-keys')).body[created.id];
    expect(again.lastUsedAt).toBe(used.lastUsedAt);
  });
});

describe('ExpiringCache', () => {
  it('forgets an entry after its lifetime', async () => {
    const cache = new ExpiringCache<string>(10, 30);
    cache.set('a', 'A', cache.ticket());
    expect(cache.get('a')).toBe('A');
    await sleep(40);
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops a lookup that started before a clear (a change made meanwhile)', () => {
    const cache = new ExpiringCache<string>(10, 1_000);
    const ticket = cache.ticket();
    cache.clear();
    cache.set('a', 'stale', ticket);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'fresh', cache.ticket());
    expect(cache.get('a')).toBe('fresh');
  });

  it('keeps at most its size, dropping the least recently used', () => {
    const cache = new ExpiringCache<number>(2, 1_000);
    cache.set('a', 1, cache.ticket());
    cache.set('b', 2, cache.ticket());
    cache.set('a', 1, cache.ticket());
    cache.set('c', 3, cache.ticket());
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2]);
  });
});
