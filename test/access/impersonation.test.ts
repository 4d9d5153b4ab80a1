import { describe, expect, it } from 'vitest';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { eachStore, runCli, sharedDatabaseUrl } from '../support/processes.js';
import { buildApp, createImpersonationRequest, hashToken, listMessages, loadConfig, supportAddress } from '../support/src.js';

/** docs/rules.md §6 Requests (impersonation), §1 `timetrack support impersonate`, and POST /auth/one-time. */

const TOKEN = /tto_[A-Za-z0-9_-]{43}/;
const HOUR = 3_600_000;

interface Resolved {
  ws: TestWorkspace;
  resolver: TestUser & { email: string };
  requestId: string;
  token: string;
  message: { to: string; kind: string; subject: string; body: string };
}

/** A workspace whose second administrator resolves an impersonation request made as the CLI makes it. */
async function resolved(h: Harness, headers: Record<string, string> = {}): Promise<Resolved> {
  const ws = await h.workspace();
  const resolver = await h.user(ws, { role: 'Administrator' });
  const request = await createImpersonationRequest(h.app.db, ws.organizationId, 'Ticket 4711: reports look wrong');
  const res = await as(h, ws, resolver).put(`/api/requests/${request.id}`, { status: 'RESOLVED' }, { headers });
  expect(res.status).toBe(200);
  const messages = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.kind === 'supportSignIn');
  expect(messages).toHaveLength(1);
  const token = TOKEN.exec(messages[0].body)![0];
  return { ws, resolver, requestId: request.id, token, message: messages[0] };
}

const redeem = (h: Harness, host: string, token: unknown) => h.call('POST', '/api/auth/one-time', { host, body: { token } });

describeEachStore('Impersonation requests', (h) => {
  it('RESOLVED answers the record (no createdBy: made with the CLI) and writes one supportSignIn message to the support address', async () => {
    const ws = await h.workspace();
    const request = await createImpersonationRequest(h.app.db, ws.organizationId, 'Ticket 4711');
    const res = await as(h, ws).put(`/api/requests/${request.id}`, { status: 'RESOLVED' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: request.id,
      status: 'RESOLVED',
      createdAt: request.created_at,
      resolvedAt: expect.any(String),
      resolvedBy: ws.admin.userId,
    });
    const messages = await listMessages(h.app.db, { organizationId: ws.organizationId });
    expect(messages).toEqual([
      {
        id: expect.any(String),
        to: `support@${h.config.baseDomain}`,
        kind: 'supportSignIn',
        subject: `Support sign-in to workspace ${ws.domain}`,
        body: expect.stringContaining('Ticket 4711'),
        createdAt: expect.any(String),
        sentAt: null,
      },
    ]);
    expect(messages[0].body).toContain(ws.admin.email);
  });

  it('the link is built from PUBLIC_URL and the workspace domain, never from the request\'s Host or X-Forwarded-* headers', async () => {
    const r = await resolved(h, { 'x-forwarded-host': 'evil.example.com', 'x-forwarded-proto': 'https' });
    const base = `http://${r.ws.domain}.${h.config.baseDomain}:3000`;
    expect(r.message.body).toContain(`${base}/auth/one-time?token=${r.token}`);
    expect(r.message.body).toContain(`POST ${base}/api/auth/one-time`);
    expect(r.message.body).not.toContain('evil');
    expect(r.message.body).not.toContain('https:');
  });

  it('only the token\'s hash is stored, for the resolving administrator, valid one hour', async () => {
    const before = Date.now();
    const r = await resolved(h);
    const rows = await h.app.db.selectFrom('one_time_tokens').selectAll().where('organization_id', '=', r.ws.organizationId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: r.resolver.userId, token_hash: hashToken(r.token), used_at: null });
    expect(JSON.stringify(rows[0])).not.toContain(r.token.slice(4));
    const expires = Date.parse(rows[0].expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + HOUR - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + HOUR);
  });

  it('REJECTED sends nothing and issues no token', async () => {
    const ws = await h.workspace();
    const request = await createImpersonationRequest(h.app.db, ws.organizationId, 'Ticket 1');
    const res = await as(h, ws).put(`/api/requests/${request.id}`, { status: 'REJECTED' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('REJECTED');
    expect(await listMessages(h.app.db, { organizationId: ws.organizationId })).toEqual([]);
    expect(await h.app.db.selectFrom('one_time_tokens').selectAll().where('organization_id', '=', ws.organizationId).execute()).toEqual([]);
  });

  it('the support address is SUPPORT_EMAIL when set, else support@<BASE_DOMAIN>', () => {
    expect(supportAddress(loadConfig({ SUPPORT_EMAIL: 'help@ops.example.com' }))).toBe('help@ops.example.com');
    expect(supportAddress(loadConfig({ BASE_DOMAIN: 'time.example.com' }))).toBe('support@time.example.com');
  });
});

describeEachStore('POST /auth/one-time', (h) => {
  it('redeems the token, without a bearer token, for a one-hour session acting as the resolving administrator', async () => {
    const r = await resolved(h);
    const before = Date.now();
    const res = await redeem(h, r.ws.host, r.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      domain: r.ws.domain,
      email: r.resolver.email,
      token: expect.stringMatching(/^tts_[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
      purpose: 'support',
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const expires = Date.parse(res.body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + HOUR - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + HOUR);

    // GET /auth with the session: it is the resolving administrator, with their rights.
    const session = { ...r.resolver, token: res.body.token };
    const auth = await as(h, r.ws, session).get('/api/auth');
    expect(auth.status).toBe(200);
    expect(auth.body).toEqual({ domain: r.ws.domain, email: r.resolver.email, token: res.body.token, userId: r.resolver.userId, role: 'Administrator' });
    expect((await as(h, r.ws, session).get('/api/timesheets/locks')).status).toBe(200);
    expect((await as(h, r.ws, session).get('/api/requests')).body[r.requestId]).toMatchObject({ status: 'RESOLVED' });
    const stored = await h.app.db.selectFrom('sessions').selectAll().where('user_id', '=', r.resolver.userId).execute();
    expect(stored).toEqual([expect.objectContaining({ organization_id: r.ws.organizationId, expires_at: res.body.expiresAt })]);
  });

  it('a second use is 401', async () => {
    const r = await resolved(h);
    expect((await redeem(h, r.ws.host, r.token)).status).toBe(200);
    const again = await redeem(h, r.ws.host, r.token);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('unauthorized');
  });

  it('concurrent redemptions of one token: exactly one session', async () => {
    const r = await resolved(h);
    const results = await Promise.all([1, 2, 3, 4].map(() => redeem(h, r.ws.host, r.token)));
    expect(results.map((res) => res.status).sort()).toEqual([200, 401, 401, 401]);
  });

  it('an expired token is 401', async () => {
    const r = await resolved(h);
    await h.app.db
      .updateTable('one_time_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(r.token))
      .execute();
    expect((await redeem(h, r.ws.host, r.token)).status).toBe(401);
  });

  it('at another workspace\'s host it is 401, and stays usable at its own', async () => {
    const r = await resolved(h);
    const other = await h.workspace();
    const res = await redeem(h, other.host, r.token);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect((await redeem(h, r.ws.host, r.token)).status).toBe(200);
  });

  it('an unknown or malformed token is 401; a missing one is 422; an unknown host is 404', async () => {
    const r = await resolved(h);
    for (const token of [`tto_${'A'.repeat(43)}`, 'tto_short', r.token.replace('tto_', 'tts_'), '', `${r.token}x`]) {
      expect((await redeem(h, r.ws.host, token)).status, token).toBe(401);
    }
    const missing = await h.call('POST', '/api/auth/one-time', { host: r.ws.host, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].pointer).toBe('/body/token');
    expect((await redeem(h, `nowhere.${h.config.baseDomain}`, r.token)).status).toBe(404);
    // None of that used it up.
    expect((await redeem(h, r.ws.host, r.token)).status).toBe(200);
  });

  it('the session is 401 at another workspace\'s host, and once it expires', async () => {
    const r = await resolved(h);
    const token = (await redeem(h, r.ws.host, r.token)).body.token;
    const other = await h.workspace();
    expect((await h.call('GET', '/api/auth', { host: other.host, token })).status).toBe(401);
    await h.app.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', r.resolver.userId)
      .execute();
    expect((await h.call('GET', '/api/auth', { host: r.ws.host, token })).status).toBe(401);
  });

  it('a resolving administrator archived since the resolution: 401', async () => {
    const r = await resolved(h);
    expect((await as(h, r.ws).put(`/api/users/${r.resolver.userId}`, { archived: true })).status).toBe(200);
    expect((await redeem(h, r.ws.host, r.token)).status).toBe(401);
  });

  it('is in the OpenAPI document as a public operation', async () => {
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(doc.paths['/auth/one-time'].post).toMatchObject({ operationId: 'redeemOneTimeSignIn', security: [] });
    expect(doc.paths['/auth/one-time'].post.responses['401']).toBeDefined();
  });
});

for (const store of eachStore) {
  describe(`timetrack support impersonate [${store.name}]`, () => {
    const url = sharedDatabaseUrl(store);
    const env = { DATABASE_URL: url, BASE_DOMAIN: 'localhost', PUBLIC_URL: 'http://localhost:3000' };
    const cli = (...args: string[]) => runCli(args, env);

    it('prints {"requestId"} of a PENDING impersonation request that an administrator resolves into a supportSignIn message', async () => {
      const created = JSON.parse((await cli('workspace', 'create', '--domain', 'helpme', '--name', 'H', '--admin-email', 'boss@helpme.example.com')).stdout);
      const result = await cli('support', 'impersonate', '--domain', 'helpme', '--reason', 'Ticket 99: invoices');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const printed = JSON.parse(result.stdout);
      expect(Object.keys(printed)).toEqual(['requestId']);

      const app = await buildApp({ config: { ...loadConfig(env), logLevel: 'warn' } });
      try {
        const headers = { host: 'helpme.localhost', authorization: `Bearer ${created.apiKey}`, 'content-type': 'application/json' };
        const read = await app.inject({ method: 'GET', url: `/api/requests/${printed.requestId}`, headers });
        expect(read.json()).toEqual({
          id: printed.requestId,
          type: 'impersonation',
          status: 'PENDING',
          createdAt: expect.any(String),
          resolvedAt: null,
          resolvedBy: null,
        });
        const res = await app.inject({ method: 'PUT', url: `/api/requests/${printed.requestId}`, headers, payload: '{"status":"RESOLVED"}' });
        expect(res.statusCode).toBe(200);
      } finally {
        await app.close();
      }
      const lines = (await cli('outbox', 'list', '--domain', 'helpme')).stdout.trim().split('\n').map((line) => JSON.parse(line));
      const signIn = lines.find((message) => message.kind === 'supportSignIn');
      expect(signIn).toMatchObject({ to: 'support@localhost', sentAt: null });
      expect(signIn.body).toContain('Ticket 99: invoices');
      expect(signIn.body).toMatch(/http:\/\/helpme\.localhost:3000\/auth\/one-time\?token=tto_/);
    });

    it('an unknown domain or a blank reason: a message on stderr and exit 1', async () => {
      const nowhere = await cli('support', 'impersonate', '--domain', 'nowhere', '--reason', 'x');
      expect(nowhere.code).toBe(1);
      expect(nowhere.stdout).toBe('');
      expect(nowhere.stderr).toMatch(/nowhere/);
      await cli('workspace', 'create', '--domain', 'blank', '--name', 'B', '--admin-email', 'b@example.com');
      const blank = await cli('support', 'impersonate', '--domain', 'blank', '--reason', '   ');
      expect(blank.code).toBe(1);
      expect(blank.stderr).toMatch(/reason/);
      const missing = await cli('support', 'impersonate', '--domain', 'blank');
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/reason/);
    });
  });
}
