import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, BASE_DOMAIN, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { startProvider, type TestProvider } from '../support/oidc-provider.js';
import { changesSince, feedEnd, readFeed } from '../changes/feed-support.js';

const PUBLIC_URL = `http://${BASE_DOMAIN}:3000`;
const REDIRECT_URI = `${PUBLIC_URL}/api/auth/oidc/callback`;
const CLIENT = { id: 'timetrack', secret: 'timetrack-client-secret-for-tests', redirectUri: REDIRECT_URI };
/** Another client of the same provider: its ID tokens are not for timetrack. */
const OTHER_CLIENT = { id: 'another-app', secret: 'another-app-client-secret', redirectUri: 'http://another.example/callback' };

let provider: TestProvider;
let accounts = 0;

/** A person the provider knows, with an email at `domain`, verified unless told. */
function person(domain = 'example.com', emailVerified = true): { sub: string; email: string } {
  const sub = `person-${process.pid}-${++accounts}`;
  const email = `${sub}@${domain}`;
  provider.accounts.set(sub, { email, emailVerified });
  return { sub, email };
}

const location = (res: { headers: Record<string, unknown> }) => String(res.headers.location);
/** The `name=value` of the browser-binding cookie a start sets. */
const browserCookie = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0];

describeEachStore(
  'Single sign-on with OpenID Connect (docs/rules.md §8 Single sign-on)',
  (h: Harness) => {
    beforeAll(async () => {
      provider = await startProvider([CLIENT, OTHER_CLIENT]);
      h.config.oidc = { issuer: provider.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, allowedDomains: [], displayName: 'Test IdP' };
    });
    afterAll(async () => {
      await provider?.close();
    });

    /** The cookie each start gave its browser, by the attempt's state: the browser that began it brings it back. */
    const browsers = new Map<string, string>();
    const cookieOf = (redirect: URL) => ({ cookie: browsers.get(redirect.searchParams.get('state')!) ?? '' });

    /** Starts at the workspace: answers the provider's authorization URL. */
    async function start(ws: TestWorkspace): Promise<URL> {
      const res = await h.call('GET', '/api/auth/oidc/start', { host: ws.host });
      expect(res.status).toBe(302);
      const url = new URL(location(res));
      browsers.set(url.searchParams.get('state')!, browserCookie(res));
      return url;
    }

    /** The provider's redirect, delivered at the deployment's host, then (forwarded) at the workspace's, in the browser that began it. */
    async function callBack(ws: TestWorkspace, redirect: URL) {
      const atDeployment = await h.call('GET', `${redirect.pathname}${redirect.search}`, { host: `${BASE_DOMAIN}:3000` });
      expect(atDeployment.status).toBe(302);
      const forwarded = new URL(location(atDeployment));
      expect(forwarded.host).toBe(`${ws.domain}.${BASE_DOMAIN}:3000`);
      expect(forwarded.search).toBe(redirect.search);
      return h.call('GET', `${forwarded.pathname}${forwarded.search}`, { host: ws.host, headers: cookieOf(redirect) });
    }

    async function signOn(ws: TestWorkspace, sub: string) {
      return callBack(ws, await provider.authorize((await start(ws)).href, sub));
    }

    it('GET /auth/providers tells the sign-in page that single sign-on is configured, and its name', async () => {
      const ws = await h.workspace();
      expect(await ok(h.call('GET', '/api/auth/providers', { host: ws.host }))).toEqual({ workspace: { name: (await ok(as(h, ws).get('/api/organization'))).name }, oidc: { configured: true, name: 'Test IdP' } });
    });

    it('start redirects to the provider with the code flow, PKCE (S256), a state, a nonce and the deployment\'s one redirect URI', async () => {
      const ws = await h.workspace();
      const url = await start(ws);
      expect(url.origin).toBe(provider.issuer);
      const params = url.searchParams;
      expect(params.get('response_type')).toBe('code');
      expect(params.get('client_id')).toBe(CLIENT.id);
      expect(params.get('redirect_uri')).toBe(REDIRECT_URI);
      expect(params.get('code_challenge_method')).toBe('S256');
      expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.get('state')).toBeTruthy();
      expect(params.get('nonce')).toBeTruthy();
      expect(params.get('scope')?.split(' ')).toContain('openid');
    });

    it('a full sign-in: an invited person\'s verified email gets a session cookie at the workspace and lands on its address', async () => {
      const ws = await h.workspace();
      const { sub, email } = person();
      const user = await h.user(ws, { email });
      const done = await signOn(ws, sub);
      expect(done.status).toBe(302);
      expect(location(done)).toBe(`http://${ws.domain}.${BASE_DOMAIN}:3000/`);
      const cookie = String(done.headers['set-cookie']);
      const token = /timetrack_access_token=(tts_[A-Za-z0-9_-]{43})/.exec(cookie)?.[1];
      expect(token).toBeDefined();
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      const me = await ok(h.call('GET', '/api/auth', { host: ws.host, token }));
      expect(me).toEqual({ domain: ws.domain, email, token, userId: user.userId, role: 'User' });
      const users = await ok(as(h, ws).get('/api/users'));
      expect(users[user.userId].email).toBe(email);
      const sessions = await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token }));
      expect(Object.values(sessions)).toEqual([expect.objectContaining({ method: 'oidc', current: true })]);
    });

    it('a replayed state is refused (401): the provider\'s answer works once', async () => {
      const ws = await h.workspace();
      const { sub, email } = person();
      await h.user(ws, { email });
      const redirect = await provider.authorize((await start(ws)).href, sub);
      expect((await callBack(ws, redirect)).status).toBe(302);
      const atDeployment = await h.call('GET', `${redirect.pathname}${redirect.search}`, { host: `${BASE_DOMAIN}:3000` });
      expect(atDeployment.status).toBe(401);
      const atWorkspace = await h.call('GET', `${redirect.pathname}${redirect.search}`, { host: ws.host, headers: cookieOf(redirect) });
      expect(atWorkspace.status).toBe(401);
      expect(atWorkspace.body.code).toBe('unauthorized');
      expect(atWorkspace.headers['set-cookie']).toBeUndefined();
    });

    it('a state begun at one workspace is refused at another\'s host', async () => {
      const ws = await h.workspace();
      const other = await h.workspace();
      const { sub, email } = person();
      await h.user(other, { email });
      const redirect = await provider.authorize((await start(ws)).href, sub);
      const res = await h.call('GET', `${redirect.pathname}${redirect.search}`, { host: other.host, headers: cookieOf(redirect) });
      expect(res.status).toBe(401);
    });

    it('an ID token issued for another client (wrong audience) is refused (401), and no session begins', async () => {
      const ws = await h.workspace();
      const { sub, email } = person();
      await h.user(ws, { email });
      const ours = await start(ws);
      // The same person signs in to the other client with the nonce of our attempt: a genuine ID token, for another audience.
      const verifier = 'v'.repeat(43);
      const { createHash } = await import('node:crypto');
      const foreign = new URL(`${provider.issuer}/auth`);
      foreign.search = new URLSearchParams({
        client_id: OTHER_CLIENT.id,
        redirect_uri: OTHER_CLIENT.redirectUri,
        response_type: 'code',
        scope: 'openid email',
        state: 'foreign',
        nonce: ours.searchParams.get('nonce')!,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      const foreignCode = (await provider.authorize(foreign.href, sub)).searchParams.get('code')!;
      const foreignTokens = await provider.exchange(OTHER_CLIENT, foreignCode, OTHER_CLIENT.redirectUri, verifier);
      const redirect = await provider.authorize(ours.href, sub);
      provider.answerNextTokenRequest({ access_token: foreignTokens.access_token, token_type: 'Bearer', expires_in: 60, id_token: foreignTokens.id_token });
      const res = await callBack(ws, redirect);
      expect(res.status).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(h.logs.join('\n')).toMatch(/single sign-on answer refused: .*aud/);
    });

    it('an email the provider has not verified is refused (403)', async () => {
      const ws = await h.workspace();
      const { sub, email } = person('example.com', false);
      await h.user(ws, { email });
      const res = await signOn(ws, sub);
      expect(res.status).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('a person not invited to the workspace is refused (403), and no user is made', async () => {
      const ws = await h.workspace();
      const { sub, email } = person('elsewhere.example');
      const res = await signOn(ws, sub);
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/not invited/);
      const users = await ok(as(h, ws).get('/api/users'));
      expect(Object.values(users).map((user: any) => user.email)).not.toContain(email);
    });

    it('an archived user is refused (403)', async () => {
      const ws = await h.workspace();
      const { sub, email } = person();
      await h.user(ws, { email, archived: true });
      expect((await signOn(ws, sub)).status).toBe(403);
    });

    it('invitation by domain: a verified email at a domain the workspace invites joins as User and is signed in', async () => {
      const ws = await h.workspace();
      await ok(as(h, ws).put('/api/auth/settings', { invitationDomains: ['invited.example'] }));
      const { sub, email } = person('invited.example');
      const res = await signOn(ws, sub);
      expect(res.status).toBe(302);
      const token = /timetrack_access_token=(tts_[A-Za-z0-9_-]{43})/.exec(String(res.headers['set-cookie']))![1];
      const users = await ok(as(h, ws).get('/api/users'));
      const joined = Object.values(users).find((user: any) => user.email === email) as any;
      expect(joined).toMatchObject({ role: 'User', archived: false });
      expect((await ok(h.call('GET', '/api/auth', { host: ws.host, token }))).email).toBe(email);
      // A second sign-on finds the same user, never a second one.
      expect((await signOn(ws, sub)).status).toBe(302);
      expect(Object.values(await ok(as(h, ws).get('/api/users'))).filter((user: any) => user.email === email)).toHaveLength(1);
    });

    it('a person who joins by single sign-on is recorded in the change feed as user.joined, acted by the new user, once', async () => {
      const ws = await h.workspace();
      await ok(as(h, ws).put('/api/auth/settings', { invitationDomains: ['invited.example'] }));
      const start = await feedEnd(h, ws);
      const { sub, email } = person('invited.example');
      expect((await signOn(ws, sub)).status).toBe(302);
      const joined = Object.values(await ok(as(h, ws).get('/api/users'))).find((user: any) => user.email === email) as any;
      const events = (await readFeed(h, ws, ws.admin, start)).events;
      expect(events.map((event) => [event.type, event.actorId, event.data])).toEqual([['user.joined', joined.id, joined]]);
      // Signing on again finds the same user: no second event.
      expect((await signOn(ws, sub)).status).toBe(302);
      expect(await changesSince(h, ws, start)).toEqual([['user.joined', joined]]);
    });

    it('invitation domains must be among OIDC_ALLOWED_DOMAINS when the deployment sets them; a person outside them is refused', async () => {
      const ws = await h.workspace();
      const before = h.config.oidc!;
      h.config.oidc = { ...before, allowedDomains: ['corp.example'] };
      try {
        const bad = await as(h, ws).put('/api/auth/settings', { invitationDomains: ['corp.example', 'invited.example'] });
        expect(bad.status).toBe(422);
        expect(bad.body.errors[0].pointer).toBe('/body/invitationDomains/1');
        const { sub, email } = person('example.com');
        await h.user(ws, { email });
        expect((await signOn(ws, sub)).status).toBe(403);
      } finally {
        h.config.oidc = before;
      }
    });

    it('without a configured provider, start and callback are 404 and the providers say so', async () => {
      const ws = await h.workspace();
      const before = h.config.oidc;
      h.config.oidc = undefined;
      try {
        expect(await ok(h.call('GET', '/api/auth/providers', { host: ws.host }))).toEqual({ workspace: { name: (await ok(as(h, ws).get('/api/organization'))).name }, oidc: { configured: false, name: null } });
        expect((await h.call('GET', '/api/auth/oidc/start', { host: ws.host })).status).toBe(404);
        expect((await h.call('GET', '/api/auth/oidc/callback?state=x&code=y', { host: ws.host })).status).toBe(404);
      } finally {
        h.config.oidc = before;
      }
    });
  },
  { publicUrl: PUBLIC_URL },
);
