import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';

/** docs/rules.md §2: the Host header selects the workspace, before any token is looked at. */
describeEachStore('Tenancy by Host', (h) => {
  it('acme.<BASE_DOMAIN>:<any port> selects workspace acme', async () => {
    const ws = await h.workspace();
    for (const host of [ws.host, `${ws.host}:3000`, `${ws.host}:8443`, ws.host.toUpperCase()]) {
      const res = await h.call('GET', '/api/auth', { host, token: ws.admin.token });
      expect(res.status).toBe(200);
      expect(res.body.domain).toBe(ws.domain);
    }
  });

  it.each(['localhost', 'example.com', 'nope.example.com', 'a.b.timetrack.test', '-x-.timetrack.test', 'timetrack.test', '[::1]:3000', ''])(
    'an unknown or malformed host (%s) is 404 workspace-not-found, before the token is checked',
    async (host) => {
      const res = await h.call('GET', '/api/auth', { host });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('workspace-not-found');
    },
  );

  it('an unknown host on an unknown route is 404 workspace-not-found too', async () => {
    const res = await h.call('GET', '/api/no-such-route', { host: 'ghost.timetrack.test' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('workspace-not-found');
  });

  it('X-Forwarded-Host never selects a workspace', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    const res = await h.call('GET', '/api/auth', { host: a.host, token: a.admin.token, headers: { 'x-forwarded-host': b.host } });
    expect(res.body.domain).toBe(a.domain);
    const none = await h.call('GET', '/api/auth', { host: 'localhost', token: b.admin.token, headers: { 'x-forwarded-host': b.host } });
    expect(none.status).toBe(404);
  });

  it('workspace B\'s records are never visible at A, even with B\'s key', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    const bKey = await as(h, b).post('/api/api-keys', { name: 'b only' });
    const res = await h.call('GET', '/api/api-keys', { host: a.host, token: b.admin.token });
    expect(res.status).toBe(401);
    const aKeys = await as(h, a).get('/api/api-keys');
    expect(Object.keys(aKeys.body)).not.toContain(bKey.body.id);
    expect((await as(h, a).delete(`/api/api-keys/${bKey.body.id}`)).status).toBe(404);
    expect((await as(h, b, { ...b.admin, token: bKey.body.key }).get('/api/auth')).status).toBe(200);
  });

  it('health, readiness and the OpenAPI document answer on any host without a token', async () => {
    for (const host of ['localhost', 'whatever.example.com']) {
      expect((await h.call('GET', '/healthz', { host })).body).toEqual({ status: 'ok' });
      expect((await h.call('GET', '/readyz', { host })).body).toEqual({ status: 'ready' });
      expect((await h.call('GET', '/api/openapi.json', { host })).status).toBe(200);
    }
  });
});
