import { expect, it } from 'vitest';
import { as, describeEachStore, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { hashToken, listMessages } from '../support/src.js';

/** docs/rules.md §7 Passwords and Lockout. */

const TOKEN = /tto_[A-Za-z0-9_-]{43}/;
const PASSWORD = 'a long enough passphrase';

/** Signs the user in by a mailed link (the way to a first password): the session token. */
async function linkSession(h: Harness, ws: TestWorkspace, user: TestUser, route = '/api/auth/email-link'): Promise<string> {
  await ok(h.call('POST', route, { host: ws.host, body: { email: user.email } }));
  const message = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.to === user.email).at(-1)!;
  return (await ok(h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token: TOKEN.exec(message.body)![0] } }))).token;
}

/** A user of a fresh workspace whose account has PASSWORD. */
async function withPassword(h: Harness): Promise<{ ws: TestWorkspace; user: TestUser; session: string }> {
  const ws = await h.workspace();
  const user = await h.user(ws);
  const session = await linkSession(h, ws, user);
  await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: session, body: { newPassword: PASSWORD } }));
  return { ws, user, session };
}

const signIn = (h: Harness, ws: TestWorkspace, email: string, password: string, address = '10.0.0.1') =>
  h.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    headers: { host: ws.host, 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password }),
    remoteAddress: address,
  });

describeEachStore(
  'Sign-in: passwords',
  (h: Harness) => {
    it('right after a link sign-in a password is set without the current one; it then signs in with a session and the cookie', async () => {
      const { ws, user } = await withPassword(h);
      const res = await signIn(h, ws, user.email.toUpperCase(), PASSWORD);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({ domain: ws.domain, email: user.email, token: expect.stringMatching(/^tts_/), expiresAt: expect.any(String) });
      expect(String(res.headers['set-cookie'])).toContain(`timetrack_access_token=${body.token};`);
      expect(res.headers['cache-control']).toBe('no-store');
      const sessions = await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token: body.token }));
      expect(Object.values<any>(sessions).find((s) => s.current).method).toBe('password');
    });

    it('only an Argon2id digest with OWASP\'s parameters is stored, never the password', async () => {
      const { user } = await withPassword(h);
      const row = await h.app.db.selectFrom('accounts').select(['password_hash', 'password_changed_at']).where('email', '=', user.email).executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
      expect(row.password_changed_at).toEqual(expect.any(String));
    });

    it('a wrong password, an unknown email, an archived user and an account without password are the same 401', async () => {
      const { ws, user } = await withPassword(h);
      const archived = await h.user(ws, { archived: true });
      const noPassword = await h.user(ws);
      const answers = [];
      for (const [email, password] of [
        [user.email, 'the wrong passphrase'],
        ['nobody@example.com', PASSWORD],
        [archived.email, PASSWORD],
        [noPassword.email, PASSWORD],
        ['not an email', PASSWORD],
      ]) {
        const res = await signIn(h, ws, email, password, '10.0.1.1');
        answers.push([res.statusCode, res.body, res.headers['set-cookie']]);
      }
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(answers[0][0]).toBe(401);
      expect(JSON.parse(answers[0][1] as string)).toMatchObject({ code: 'unauthorized', detail: 'The email or the password is wrong.' });
      // At another workspace's host the password signs in nobody.
      const other = await h.workspace();
      expect((await signIn(h, other, user.email, PASSWORD, '10.0.1.2')).statusCode).toBe(401);
    });

    it('an unknown email costs a hash check like a known one (no quick answer)', async () => {
      const { ws, user } = await withPassword(h);
      const time = async (email: string, address: string) => {
        const started = performance.now();
        await signIn(h, ws, email, 'the wrong passphrase', address);
        return performance.now() - started;
      };
      await time('warm-up@example.com', '10.0.2.9');
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 3; i++) {
        known.push(await time(user.email, `10.0.2.${i}`));
        unknown.push(await time(`nobody${i}@example.com`, `10.0.3.${i}`));
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[1];
      // An Argon2id check at these parameters takes milliseconds; skipping it would answer in well under one.
      expect(median(unknown)).toBeGreaterThan(median(known) / 3);
    });

    it('lockout: after the allowed failures for an account, every sign-in of it is 429 with Retry-After, the right password too, until the window ends', async () => {
      const { ws, user } = await withPassword(h);
      const max = h.config.signInLockout.perAccount;
      for (let i = 0; i < max; i++) expect((await signIn(h, ws, user.email, `wrong passphrase ${i}`, `10.1.0.${i}`)).statusCode).toBe(401);
      const locked = await signIn(h, ws, user.email, PASSWORD, '10.1.1.1');
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toMatchObject({ code: 'rate-limited' });
      expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(h.config.signInLockout.windowSeconds);
      // An unknown email locks alike (its answers tell nothing either).
      for (let i = 0; i < max; i++) await signIn(h, ws, 'ghost@example.com', 'wrong passphrase', `10.1.2.${i}`);
      expect((await signIn(h, ws, 'ghost@example.com', PASSWORD, '10.1.3.1')).statusCode).toBe(429);
      // Released when the window ends.
      await new Promise((resolve) => setTimeout(resolve, h.config.signInLockout.windowSeconds * 1000 + 100));
      expect((await signIn(h, ws, user.email, PASSWORD, '10.1.4.1')).statusCode).toBe(200);
    });

    it('lockout per address: after the allowed failures from one address, its sign-ins are 429 for any account; other addresses are served', async () => {
      const { ws, user } = await withPassword(h);
      const max = h.config.signInLockout.perAddress;
      for (let i = 0; i < max; i++) await signIn(h, ws, `spray${i}@example.com`, 'wrong passphrase', '10.2.0.1');
      expect((await signIn(h, ws, user.email, PASSWORD, '10.2.0.1')).statusCode).toBe(429);
      expect((await signIn(h, ws, user.email, PASSWORD, '10.2.0.2')).statusCode).toBe(200);
    });

    it('a password is 12 to 256 characters, counted in code points, with no composition rule', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const session = await linkSession(h, ws, user);
      const put = (newPassword: string) => h.call('PUT', '/api/auth/password', { host: ws.host, token: session, body: { newPassword } });
      expect((await put('eleven char')).status).toBe(422);
      expect((await put('x'.repeat(257))).status).toBe(422);
      expect((await put('😀'.repeat(12))).status).toBe(200);
      expect((await put('😀'.repeat(256))).status).toBe(200);
      expect((await put('aaaaaaaaaaaa')).status).toBe(200);
    });

    it('changing the password needs the current one (missing 422, wrong 403) unless a link signed in moments ago; without a password, only after a link', async () => {
      const { ws, user } = await withPassword(h);
      // An API key without a fresh link: the current password is needed.
      const key = as(h, ws, user);
      expect((await key.put('/api/auth/password', { newPassword: 'another passphrase' })).status).toBe(422);
      expect((await key.put('/api/auth/password', { currentPassword: 'not the one at all', newPassword: 'another passphrase' })).status).toBe(403);
      await ok(key.put('/api/auth/password', { currentPassword: PASSWORD, newPassword: 'another passphrase' }));
      expect((await signIn(h, ws, user.email, 'another passphrase', '10.3.0.1')).statusCode).toBe(200);
      // A password sign-in is no link: it needs the current password too.
      const bySignIn = (await signIn(h, ws, user.email, 'another passphrase', '10.3.0.2')).json().token;
      expect((await h.call('PUT', '/api/auth/password', { host: ws.host, token: bySignIn, body: { newPassword: 'a third passphrase' } })).status).toBe(422);
      // An account without a password and no fresh link: 403.
      const fresh = await h.user(ws);
      expect((await as(h, ws, fresh).put('/api/auth/password', { newPassword: 'a first passphrase' })).status).toBe(403);
      // A link session older than the window is no longer fresh.
      const old = await linkSession(h, ws, fresh);
      await h.app.db.updateTable('sessions').set({ created_at: new Date(Date.now() - 11 * 60_000).toISOString() }).where('token_hash', '=', hashToken(old)).execute();
      expect((await h.call('PUT', '/api/auth/password', { host: ws.host, token: old, body: { newPassword: 'a first passphrase' } })).status).toBe(403);
    });

    it('changing the password ends every other session of the account at once, and keeps the one that changed it', async () => {
      const { ws, user } = await withPassword(h);
      const other = (await signIn(h, ws, user.email, PASSWORD, '10.4.0.1')).json().token;
      const changer = (await signIn(h, ws, user.email, PASSWORD, '10.4.0.2')).json().token;
      await ok(h.call('GET', '/api/auth', { host: ws.host, token: other }));
      await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: changer, body: { currentPassword: PASSWORD, newPassword: 'the new passphrase' } }));
      expect((await h.call('GET', '/api/auth', { host: ws.host, token: other })).status).toBe(401);
      await ok(h.call('GET', '/api/auth', { host: ws.host, token: changer }));
      expect(Object.keys(await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token: changer })))).toHaveLength(1);
      // API keys are not sessions: they keep working.
      await ok(as(h, ws, user).get('/api/auth'));
      expect((await signIn(h, ws, user.email, PASSWORD, '10.4.0.3')).statusCode).toBe(401);
    });

    it('a support session may not set the password (403)', async () => {
      const ws = await h.workspace();
      const { oneTimeToken } = await import('../security/world.js');
      const { token } = await ok(h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token: await oneTimeToken(h, ws) } }));
      expect((await h.call('PUT', '/api/auth/password', { host: ws.host, token, body: { newPassword: 'support passphrase' } })).status).toBe(403);
    });

    it('reset: POST /auth/password-reset answers {} alike, mails only a user; its link signs in and lets a new password be set without the old one', async () => {
      const { ws, user } = await withPassword(h);
      const known = await h.call('POST', '/api/auth/password-reset', { host: ws.host, body: { email: user.email } });
      const unknown = await h.call('POST', '/api/auth/password-reset', { host: ws.host, body: { email: 'nobody@example.com' } });
      expect([known.status, known.text]).toEqual([200, '{}']);
      expect([unknown.status, unknown.text]).toEqual([200, '{}']);
      const messages = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.kind === 'passwordReset');
      expect(messages.map((m) => m.to)).toEqual([user.email]);
      const token = TOKEN.exec(messages[0].body)![0];
      const session = await ok(h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token } }));
      expect(session.purpose).toBe('password-reset');
      await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: session.token, body: { newPassword: 'the reset passphrase' } }));
      expect((await signIn(h, ws, user.email, 'the reset passphrase', '10.5.0.1')).statusCode).toBe(200);
      expect((await signIn(h, ws, user.email, PASSWORD, '10.5.0.2')).statusCode).toBe(401);
      expect((await h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token } })).status).toBe(401);
    });

    it('the plain reset form takes the new password: posting it sets the password, signs in and goes to /', async () => {
      const { ws, user } = await withPassword(h);
      await ok(h.call('POST', '/api/auth/password-reset', { host: ws.host, body: { email: user.email } }));
      const message = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.kind === 'passwordReset').at(-1)!;
      const token = TOKEN.exec(message.body)![0];
      const shown = await h.call('GET', `/auth/one-time?token=${token}`, { host: ws.host });
      // The web app's page (test/web: its form asks the new password after the link's button).
      expect(shown.text).toContain('<div id="app"></div>');
      const form = (payload: string) => ({
        host: ws.host,
        payload,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${ws.domain}.timetrack.test:3000` },
      });
      // Too short: the form comes back and the link is still good.
      expect((await h.call('POST', '/auth/one-time', form(`token=${token}&newPassword=short`))).status).toBe(422);
      const posted = await h.call('POST', '/auth/one-time', form(`token=${token}&newPassword=${encodeURIComponent('the page passphrase')}`));
      expect(posted.status).toBe(303);
      expect(String(posted.headers['set-cookie'])).toMatch(/timetrack_access_token=tts_/);
      expect((await signIn(h, ws, user.email, 'the page passphrase', '10.6.0.1')).statusCode).toBe(200);
    });
  },
  { signInLockout: { perAccount: 3, perAddress: 5, windowSeconds: 2 }, enumerationFloorMs: 20 },
);

describeEachStore(
  'Sign-in: password checks per address',
  (h) => {
    it('one address gets at most the minute\'s password checks, right or wrong; past them 429 with Retry-After and no session, while other addresses are served', async () => {
      const { ws, user, session } = await withPassword(h);
      const sessionsBefore = Object.keys((await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token: session }))) as object).length;
      const max = h.config.signInAttemptsPerAddressPerMinute;
      for (let i = 0; i < max - 1; i++) expect((await signIn(h, ws, user.email, PASSWORD, '10.7.0.1')).statusCode).toBe(200);
      expect((await signIn(h, ws, user.email, 'wrong passphrase', '10.7.0.1')).statusCode).toBe(401);

      const refused = await signIn(h, ws, user.email, PASSWORD, '10.7.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'rate-limited', detail: expect.stringMatching(/^Too many password checks from this address: try again in \d+ s\.$/) });
      expect(refused.json().token).toBeUndefined();
      expect(refused.headers['set-cookie']).toBeUndefined();
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      const sessionsAfter = Object.keys((await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token: session }))) as object).length;
      expect(sessionsAfter).toBe(sessionsBefore + max - 1);

      expect((await signIn(h, ws, user.email, PASSWORD, '10.7.0.2')).statusCode).toBe(200);
    });
  },
  { signInAttemptsPerAddressPerMinute: 3, enumerationFloorMs: 20 },
);
