import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { toDbBool } from '../support/src.js';

/** docs/rules.md §2: who a bearer token stands for, and every way it is 401. */
describeEachStore('Bearer tokens', (h) => {
  const expect401 = (res: { status: number; headers: Record<string, unknown>; body: any }) => {
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  };

  /** A session of the admin's account (account-wide), or one acting as `actAs` in the workspace only. */
  const session = (harness: Harness, ws: TestWorkspace, expiresInMs = 3_600_000, actAs?: string) =>
    make.session(harness, actAs ?? ws.admin.userId, { expiresInMs, ...(actAs ? { actingIn: ws } : {}) });

  it('GET /auth returns the email, the workspace domain and the bearer token in use', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/auth');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ domain: ws.domain, email: ws.admin.email, token: ws.admin.token });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a missing Authorization header is 401', async () => {
    const ws = await h.workspace();
    expect401(await h.call('GET', '/api/auth', { host: ws.host }));
  });

  it('HEAD of a route needs the token and the permission its GET needs', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const head = (url: string, token?: string) => h.call('HEAD', url, { host: ws.host, ...(token ? { token } : {}) });
    const missing = await head('/api/activities');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect((await head('/api/activities', user.token)).status).toBe(200);
    expect((await head('/api/subscriptions', user.token)).status).toBe(403);
    expect((await head('/api/subscriptions', ws.admin.token)).status).toBe(200);
  });

  it('a malformed Authorization header is 401', async () => {
    const ws = await h.workspace();
    for (const value of ['Basic abc', 'Bearer', `Token ${ws.admin.token}`, `Bearer ${ws.admin.token} extra`]) {
      expect401(await h.call('GET', '/api/auth', { host: ws.host, headers: { authorization: value } }));
    }
  });

  it('an unknown API key of the right shape is 401', async () => {
    const ws = await h.workspace();
    expect401(await h.call('GET', '/api/auth', { host: ws.host, token: `ttk_${'A'.repeat(43)}` }));
  });

  it('an API key is 401 at another workspace\'s host', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    expect401(await h.call('GET', '/api/auth', { host: b.host, token: a.admin.token }));
  });

  it('a revoked API key is 401 at once', async () => {
    const ws = await h.workspace();
    const created = await as(h, ws).post('/api/api-keys', { name: 'temporary' });
    const key = { ...ws.admin, token: created.body.key };
    expect((await as(h, ws, key).get('/api/auth')).status).toBe(200);
    expect((await as(h, ws).delete(`/api/api-keys/${created.body.id}`)).status).toBe(200);
    expect401(await as(h, ws, key).get('/api/auth'));
  });

  it('an archived user\'s API key is 401', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws, { archived: true });
    expect401(await as(h, ws, user).get('/api/auth'));
  });

  it('a deleted user\'s API key is 401', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await h.app.db.deleteFrom('users').where('id', '=', user.userId).execute();
    expect401(await as(h, ws, user).get('/api/auth'));
  });

  it('a session token works at every workspace where the account has an active user', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    const token = await session(h, a);
    // A user of b on the same account (the same email).
    await make.user(h, b, { email: a.admin.email });
    const atA = await h.call('GET', '/api/auth', { host: a.host, token });
    const atB = await h.call('GET', '/api/auth', { host: b.host, token });
    expect(atA.body).toEqual({ domain: a.domain, email: a.admin.email, token });
    expect(atB.body).toEqual({ domain: b.domain, email: a.admin.email, token });
    const organizations = await h.call('GET', '/api/organizations', { host: b.host, token });
    expect(organizations.body).toEqual([
      { active: true, domain: a.domain, name: `Workspace ${a.domain}` },
      { active: true, domain: b.domain, name: `Workspace ${b.domain}` },
    ]);
  });

  it('a session token is 401 where the account has no user, or only an archived one', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    const token = await session(h, a);
    expect401(await h.call('GET', '/api/auth', { host: b.host, token }));
    await h.app.db.updateTable('users').set({ archived: toDbBool(true) }).where('id', '=', a.admin.userId).execute();
    expect401(await h.call('GET', '/api/auth', { host: a.host, token }));
  });

  it('an expired session token is 401', async () => {
    const ws = await h.workspace();
    const token = await session(h, ws, -1000);
    expect401(await h.call('GET', '/api/auth', { host: ws.host, token }));
  });

  it('a session acting as one user is valid only in that user\'s workspace', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    const token = await session(h, a, 3_600_000, a.admin.userId);
    expect((await h.call('GET', '/api/auth', { host: a.host, token })).status).toBe(200);
    expect401(await h.call('GET', '/api/auth', { host: b.host, token }));
  });

  it('authenticated answers carry Cache-Control: no-store', async () => {
    const ws = await h.workspace();
    for (const url of ['/api/auth', '/api/organization', '/api/organizations', '/api/api-keys']) {
      expect((await as(h, ws).get(url)).headers['cache-control']).toBe('no-store');
    }
  });

  it('API keys are stored only as their SHA-256: no stored column holds the secret', async () => {
    const ws = await h.workspace();
    const rows = await h.app.db.selectFrom('api_keys').selectAll().where('organization_id', '=', ws.organizationId).execute();
    expect(JSON.stringify(rows)).not.toContain(ws.admin.token);
    expect(ws.admin.token).toMatch(/^ttk_[A-Za-z0-9_-]{43}$/);
  });
});
