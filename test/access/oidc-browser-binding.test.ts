import { afterAll, beforeAll, expect, it } from 'vitest';
import { BASE_DOMAIN, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { startProvider, type TestProvider } from '../support/oidc-provider.js';

const PUBLIC_URL = `http://${BASE_DOMAIN}:3000`;
const CLIENT = { id: 'timetrack', secret: 'timetrack-client-secret-for-tests', redirectUri: `${PUBLIC_URL}/api/auth/oidc/callback` };
const BROWSER_COOKIE = 'timetrack_oidc_browser';

let provider: TestProvider;
let accounts = 0;

const location = (res: { headers: Record<string, unknown> }) => String(res.headers.location);
const setCookies = (res: { headers: Record<string, unknown> }): string[] => [res.headers['set-cookie'] ?? []].flat().map(String);

describeEachStore(
  'Single sign-on: the attempt works only in the browser that began it (docs/rules.md §8 Single sign-on)',
  (h: Harness) => {
    beforeAll(async () => {
      provider = await startProvider([CLIENT]);
      h.config.oidc = { issuer: provider.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, allowedDomains: [], displayName: 'Test IdP' };
    });
    afterAll(async () => {
      await provider?.close();
    });

    /** A user of the workspace the provider knows: its `sub`, and its API key to list its sessions. */
    async function person(ws: TestWorkspace) {
      const sub = `binding-${process.pid}-${++accounts}`;
      const email = `${sub}@example.com`;
      provider.accounts.set(sub, { email, emailVerified: true });
      const user = await h.user(ws, { email });
      return { sub, user };
    }

    /** A browser's start at the workspace: the provider's authorization URL and the cookie (`name=value`) it was given. */
    async function start(ws: TestWorkspace): Promise<{ url: URL; cookie: string; setCookie: string }> {
      const res = await h.call('GET', '/api/auth/oidc/start', { host: ws.host });
      expect(res.status).toBe(302);
      const [setCookie] = setCookies(res).filter((cookie) => cookie.startsWith(`${BROWSER_COOKIE}=`));
      expect(setCookie).toBeDefined();
      return { url: new URL(location(res)), cookie: setCookie.split(';')[0], setCookie };
    }

    /** The provider's redirect opened in a browser: at the deployment's host, then forwarded to the workspace's with the browser's cookies. */
    async function open(ws: TestWorkspace, redirect: URL, cookie: string | undefined) {
      const atDeployment = await h.call('GET', `${redirect.pathname}${redirect.search}`, { host: `${BASE_DOMAIN}:3000` });
      expect(atDeployment.status).toBe(302);
      const forwarded = new URL(location(atDeployment));
      return h.call('GET', `${forwarded.pathname}${forwarded.search}`, { host: ws.host, headers: cookie === undefined ? {} : { cookie } });
    }

    const sessionsOf = async (ws: TestWorkspace, token: string) => Object.values(await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token })));

    it('the start sets a short-lived HttpOnly, SameSite=Lax cookie for the callback\'s path only', async () => {
      const ws = await h.workspace();
      const { setCookie } = await start(ws);
      expect(setCookie).toMatch(new RegExp(`^${BROWSER_COOKIE}=[A-Za-z0-9_-]{43};`));
      const attributes = setCookie.split('; ').slice(1);
      expect(attributes).toEqual(expect.arrayContaining(['Max-Age=600', 'Path=/api/auth/oidc/callback', 'HttpOnly', 'SameSite=Lax']));
      // PUBLIC_URL is http here: Secure only with https, as the session cookie.
      expect(attributes).not.toContain('Secure');
    });

    it('a callback an attacker completed, opened in a browser without the start\'s cookie, is refused (401) and signs nobody in', async () => {
      const ws = await h.workspace();
      const attacker = await person(ws);
      const attempt = await start(ws);
      const redirect = await provider.authorize(attempt.url.href, attacker.sub);
      const res = await open(ws, redirect, undefined);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
      expect(setCookies(res).join('\n')).not.toContain('timetrack_access_token');
      expect(await sessionsOf(ws, attacker.user.token)).toEqual([]);
    });

    it('the same callback opened in a browser that began an attempt of its own (another cookie) is refused (401) and signs nobody in', async () => {
      const ws = await h.workspace();
      const attacker = await person(ws);
      const attackersAttempt = await start(ws);
      const victimsAttempt = await start(ws);
      const redirect = await provider.authorize(attackersAttempt.url.href, attacker.sub);
      const res = await open(ws, redirect, victimsAttempt.cookie);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
      expect(setCookies(res).join('\n')).not.toContain('timetrack_access_token');
      expect(await sessionsOf(ws, attacker.user.token)).toEqual([]);
    });

    it('in the browser that began it, the callback signs in and clears the start\'s cookie', async () => {
      const ws = await h.workspace();
      const { sub, user } = await person(ws);
      const attempt = await start(ws);
      const res = await open(ws, await provider.authorize(attempt.url.href, sub), attempt.cookie);
      expect(res.status).toBe(302);
      const cookies = setCookies(res);
      const token = /timetrack_access_token=(tts_[A-Za-z0-9_-]{43})/.exec(cookies.join('\n'))?.[1];
      expect(token).toBeDefined();
      expect(cookies).toContainEqual(expect.stringMatching(new RegExp(`^${BROWSER_COOKIE}=; Max-Age=0; Path=/api/auth/oidc/callback;`)));
      expect(await sessionsOf(ws, user.token)).toEqual([expect.objectContaining({ method: 'oidc' })]);
    });
  },
  { publicUrl: PUBLIC_URL },
);
