import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { toDbBool } from '../support/src.js';

/** The cookie a browser sends its session in (docs/rules.md §7 Browser sessions). */
const SESSION_COOKIE = 'timetrack_access_token';

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

  it('GET /auth answers an administrator\'s API key with the domain, email, token, their user id and role Administrator', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/auth');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ domain: ws.domain, email: ws.admin.email, token: ws.admin.token, userId: ws.admin.userId, role: 'Administrator' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('GET /auth answers a User\'s API key with that user\'s id, as GET /users keys them, and role User', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).get('/api/auth');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ domain: ws.domain, email: user.email, token: user.token, userId: user.userId, role: 'User' });
    const users = await as(h, ws).get('/api/users');
    expect(users.body[res.body.userId]).toMatchObject({ email: user.email, role: 'User' });
  });

  it('GET /auth answers a browser session (the session cookie) with the signed-in person\'s user id and role in this workspace', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const token = await make.session(h, user.userId);
    const res = await h.call('GET', '/api/auth', { host: ws.host, headers: { cookie: `${SESSION_COOKIE}=${token}` } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ domain: ws.domain, email: user.email, token, userId: user.userId, role: 'User' });
  });

  it('GET /auth answers a support session with the email, id and role of the user it acts as', async () => {
    const ws = await h.workspace();
    const second = await h.user(ws, { role: 'Administrator' });
    const token = await session(h, ws, 3_600_000, second.userId);
    const res = await h.call('GET', '/api/auth', { host: ws.host, token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ domain: ws.domain, email: second.email, token, userId: second.userId, role: 'Administrator' });
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
    // A user of b on the same account (the same email): GET /auth names the user of each workspace.
    const atBUser = await make.user(h, b, { email: a.admin.email });
    const atA = await h.call('GET', '/api/auth', { host: a.host, token });
    const atB = await h.call('GET', '/api/auth', { host: b.host, token });
    expect(atA.body).toEqual({ domain: a.domain, email: a.admin.email, token, userId: a.admin.userId, role: 'Administrator' });
    expect(atB.body).toEqual({ domain: b.domain, email: a.admin.email, token, userId: atBUser.userId, role: 'User' });
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
