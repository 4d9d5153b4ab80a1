import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { hashToken } from '../support/src.js';

/** docs/rules.md §7 Browser sessions: the cookie, CSRF, signing out, the list of sessions, the idle timeout. */

const COOKIE = 'timetrack_access_token';

/** The workspace's own origin, as PUBLIC_URL makes it (http://timetrack.test:3000 → http://<domain>.timetrack.test:3000). */
const originOf = (h: Harness, ws: TestWorkspace) => {
  const url = new URL(h.config.publicUrl);
  return `${url.protocol}//${ws.domain}.${url.host}`;
};

/** A request sent with the session cookie only (as a browser does), with the given extra headers. */
const withCookie = (h: Harness, ws: TestWorkspace, token: string, method: string, url: string, headers: Record<string, string> = {}, body?: unknown) =>
  h.call(method, url, { host: ws.host, headers: { cookie: `theme=dark; ${COOKIE}=${token}`, ...headers }, ...(body !== undefined ? { body } : {}) });

const sessionIdOf = async (h: Harness, token: string) =>
  (await h.app.db.selectFrom('sessions').select('id').where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow()).id;

/** A person's session, begun through the API (a support link redeemed by a workspace's second administrator stands in for any link here). */
async function signedIn(h: Harness): Promise<{ ws: TestWorkspace; user: TestUser; token: string; setCookie: string }> {
  const ws = await h.workspace();
  const user = await h.user(ws);
  const token = await make.session(h, user.userId);
  return { ws, user, token, setCookie: '' };
}

function parseSetCookie(header: unknown): { value: string; attributes: Record<string, string | true> } {
  const text = ([header].flat()[0] as string) ?? '';
  const [pair, ...rest] = text.split(';').map((part) => part.trim());
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const [name, ...value] = part.split('=');
    attributes[name.toLowerCase()] = value.length ? value.join('=') : true;
  }
  return { value: pair.slice(pair.indexOf('=') + 1), attributes };
}

async function redeemedSupportLink(h: Harness, ws: TestWorkspace) {
  const { oneTimeToken } = await import('../security/world.js');
  return h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token: await oneTimeToken(h, ws) }, headers: { 'user-agent': 'TestBrowser/1.0' } });
}

describeEachStore('Sign-in: browser sessions', (h: Harness) => {
  it('a sign-in sets the session cookie: HttpOnly, SameSite=Lax, Path=/, no Domain, not Secure under an http PUBLIC_URL, expiring with the session', async () => {
    const ws = await h.workspace();
    const res = await redeemedSupportLink(h, ws);
    expect(res.status).toBe(200);
    const cookie = parseSetCookie(res.headers['set-cookie']);
    expect(String(res.headers['set-cookie'])).toMatch(new RegExp(`^${COOKIE}=`));
    expect(cookie.value).toBe(res.body.token);
    expect(cookie.attributes).toEqual({ httponly: true, samesite: 'Lax', path: '/', expires: new Date(res.body.expiresAt).toUTCString() });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the API takes the cookie when no Authorization header is sent, and GET /auth answers the token in use', async () => {
    const { ws, user, token } = await signedIn(h);
    const res = await withCookie(h, ws, token, 'GET', '/api/auth');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ domain: ws.domain, email: user.email, token, userId: user.userId, role: 'User' });
    // An Authorization header wins over the cookie.
    const both = await h.call('GET', '/api/auth', { host: ws.host, token: user.token, headers: { cookie: `${COOKIE}=${token}` } });
    expect(both.body.token).toBe(user.token);
    // A cookie of no session is 401 like any unknown token.
    expect((await withCookie(h, ws, 'tts_nothing', 'GET', '/api/auth')).status).toBe(401);
  });

  it('CSRF: a cookie-authenticated write needs the workspace\'s own Origin and no Sec-Fetch-Site but same-origin; reads and bearer requests do not', async () => {
    const { ws, token } = await signedIn(h);
    const own = originOf(h, ws);
    const other = await h.workspace();
    const origins: Record<string, Record<string, string>> = {
      same: { origin: own },
      foreign: { origin: 'https://evil.example' },
      'other workspace': { origin: originOf(h, other) },
      'own host, other scheme': { origin: own.replace('http:', 'https:') },
      missing: {},
    };
    const sites: Record<string, Record<string, string>> = {
      absent: {},
      'same-origin': { 'sec-fetch-site': 'same-origin' },
      'same-site': { 'sec-fetch-site': 'same-site' },
      'cross-site': { 'sec-fetch-site': 'cross-site' },
      none: { 'sec-fetch-site': 'none' },
    };
    const requests: [string, string, unknown?][] = [
      ['GET', '/api/users'],
      ['POST', '/api/api-keys', { name: 'CSRF probe' }],
      ['PUT', '/api/users/me/preferences', {}],
      ['DELETE', '/api/reports/nothing'],
    ];
    const cells: string[] = [];
    for (const [method, url, body] of requests) {
      for (const [originName, origin] of Object.entries(origins)) {
        for (const [siteName, site] of Object.entries(sites)) {
          const res = await withCookie(h, ws, token, method, url, { ...origin, ...site }, body);
          const allowed = method === 'GET' || (originName === 'same' && (siteName === 'absent' || siteName === 'same-origin'));
          const csrf = res.status === 403 && /forgery/.test(res.body?.detail ?? '');
          if (allowed === csrf) cells.push(`${method} origin ${originName}, Sec-Fetch-Site ${siteName}: ${res.status} ${res.body?.detail ?? ''}`);
          if (csrf) expect(res.body.code).toBe('forbidden');
        }
      }
    }
    expect(cells).toEqual([]);
    // A forged write changed nothing.
    const keys = await ok(withCookie(h, ws, token, 'GET', '/api/api-keys'));
    expect(Object.values(keys).filter((key: any) => key.name === 'CSRF probe')).toHaveLength(2);
    // With the bearer header, no Origin is needed (a browser never adds it by itself).
    const bearer = await h.call('POST', '/api/auth/sign-out', { host: ws.host, token, headers: { origin: 'https://evil.example' } });
    expect(bearer.status).toBe(200);
  });

  it('sign-out ends the session at once and clears the cookie; with an API key it revokes nothing', async () => {
    const { ws, user, token } = await signedIn(h);
    expect((await withCookie(h, ws, token, 'GET', '/api/auth')).status).toBe(200);
    const res = await withCookie(h, ws, token, 'POST', '/api/auth/sign-out', { origin: originOf(h, ws), 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const cleared = parseSetCookie(res.headers['set-cookie']);
    expect(cleared.value).toBe('');
    expect(Date.parse(cleared.attributes.expires as string)).toBeLessThan(Date.now());
    expect((await withCookie(h, ws, token, 'GET', '/api/auth')).status).toBe(401);
    expect((await h.call('GET', '/api/auth', { host: ws.host, token })).status).toBe(401);
    expect(await h.app.db.selectFrom('sessions').select('id').where('token_hash', '=', hashToken(token)).execute()).toEqual([]);
    // An API key signs out of nothing: it keeps working.
    await ok(as(h, ws, user).post('/api/auth/sign-out'));
    await ok(as(h, ws, user).get('/api/auth'));
  });

  it('GET /auth/sessions lists the account\'s live sessions (never tokens), marks the current one; DELETE ends one at once, and another account\'s is 404', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const first = await make.session(h, user.userId);
    const second = await make.session(h, user.userId);
    const ended = await make.session(h, user.userId, { expiresInMs: -1000 });
    const stranger = await h.user(ws);
    const strangers = await make.session(h, stranger.userId);
    const list = await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token: second }));
    const [firstId, secondId] = [await sessionIdOf(h, first), await sessionIdOf(h, second)];
    expect(Object.keys(list)).toEqual([firstId, secondId]);
    expect(list[secondId]).toEqual({
      id: secondId,
      method: 'link',
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
      expiresAt: expect.any(String),
      userAgent: null,
      current: true,
    });
    expect(list[firstId].current).toBe(false);
    expect(JSON.stringify(list)).not.toContain(first.slice(4));
    expect(ended).toBeTruthy();
    // Another account's session is not the caller's to end.
    const foreign = await h.call('DELETE', `/api/auth/sessions/${await sessionIdOf(h, strangers)}`, { host: ws.host, token: second });
    expect(foreign.status).toBe(404);
    await ok(h.call('GET', '/api/auth', { host: ws.host, token: strangers }));
    // Ending the first from the second: the first is 401 at once, the second keeps working.
    await ok(h.call('GET', '/api/auth', { host: ws.host, token: first }));
    await ok(h.call('DELETE', `/api/auth/sessions/${firstId}`, { host: ws.host, token: second }));
    expect((await h.call('GET', '/api/auth', { host: ws.host, token: first })).status).toBe(401);
    expect(Object.keys(await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token: second })))).toEqual([secondId]);
    expect((await h.call('DELETE', `/api/auth/sessions/${firstId}`, { host: ws.host, token: second })).status).toBe(404);
  });

  it('a support session may neither list nor end the account\'s sessions (403), but may sign out', async () => {
    const ws = await h.workspace();
    const { token } = await ok(redeemedSupportLink(h, ws));
    expect((await h.call('GET', '/api/auth/sessions', { host: ws.host, token })).status).toBe(403);
    const adminSessions = await ok(as(h, ws).get('/api/auth/sessions'));
    const [support] = Object.values<any>(adminSessions);
    expect(support).toMatchObject({ method: 'support', userAgent: 'TestBrowser/1.0', current: false });
    expect((await h.call('DELETE', `/api/auth/sessions/${support.id}`, { host: ws.host, token })).status).toBe(403);
    await ok(h.call('POST', '/api/auth/sign-out', { host: ws.host, token }));
    expect((await h.call('GET', '/api/auth', { host: ws.host, token })).status).toBe(401);
  });

  it('a session unused for the idle timeout has ended: 401, and gone from the list', async () => {
    const { ws, user, token } = await signedIn(h);
    await ok(h.call('GET', '/api/auth', { host: ws.host, token }));
    const idle = new Date(Date.now() - h.config.sessionIdleSeconds * 1000 - 1000).toISOString();
    await h.app.db.updateTable('sessions').set({ last_used_at: idle, created_at: idle }).where('token_hash', '=', hashToken(token)).execute();
    h.app.identity.invalidate();
    expect((await h.call('GET', '/api/auth', { host: ws.host, token })).status).toBe(401);
    expect(await ok(as(h, ws, user).get('/api/auth/sessions'))).toEqual({});
  });

  it('use keeps a session alive: last use is recorded, to the minute', async () => {
    const { ws, token } = await signedIn(h);
    const old = new Date(Date.now() - 5 * 60_000).toISOString();
    await h.app.db.updateTable('sessions').set({ last_used_at: old }).where('token_hash', '=', hashToken(token)).execute();
    h.app.identity.invalidate();
    await ok(h.call('GET', '/api/auth', { host: ws.host, token }));
    const row = await h.app.db.selectFrom('sessions').select('last_used_at').where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(Date.parse(row.last_used_at!)).toBeGreaterThan(Date.now() - 10_000);
  });
});

describeEachStore(
  'Sign-in: the session cookie under an https PUBLIC_URL',
  (h: Harness) => {
    it('is Secure, and the CSRF check takes the https origin', async () => {
      const ws = await h.workspace();
      const res = await redeemedSupportLink(h, ws);
      const cookie = parseSetCookie(res.headers['set-cookie']);
      expect(cookie.attributes).toEqual({ httponly: true, samesite: 'Lax', path: '/', secure: true, expires: new Date(res.body.expiresAt).toUTCString() });
      const token = res.body.token;
      expect((await withCookie(h, ws, token, 'POST', '/api/auth/sign-out', { origin: `http://${ws.domain}.timetrack.test` })).status).toBe(403);
      expect((await withCookie(h, ws, token, 'POST', '/api/auth/sign-out', { origin: `https://${ws.domain}.timetrack.test` })).status).toBe(200);
    });
  },
  { publicUrl: 'https://timetrack.test' },
);
