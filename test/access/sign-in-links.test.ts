import { afterEach, expect, it, vi } from 'vitest';
import { as, describeEachStore, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { EXPIRED_BODY, listMessages } from '../support/src.js';

/** docs/rules.md §7 Links and No enumeration: sign-in links, invitations, finding one's workspaces, the link pages. */

const TOKEN = /tto_[A-Za-z0-9_-]{43}/;
const MINUTE = 60_000;

const outboxTo = (h: Harness, to: string) =>
  h.app.db.selectFrom('outbox').select(['kind', 'subject', 'body', 'organization_id']).where('to_address', '=', to).orderBy('created_at').execute();

const originOf = (ws: TestWorkspace) => `http://${ws.domain}.timetrack.test:3000`;

async function mailedToken(h: Harness, ws: TestWorkspace, to: string, kind: string): Promise<string> {
  const message = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.to === to && m.kind === kind).at(-1);
  expect(message, `a ${kind} message to ${to}`).toBeDefined();
  return TOKEN.exec(message!.body)![0];
}

const redeem = (h: Harness, ws: TestWorkspace, token: string) => h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token } });

describeEachStore(
  'Sign-in: mailed links',
  (h: Harness) => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('POST /auth/email-link answers {} alike for a user, an unknown address, an archived user and another workspace\'s user; only the user gets mail', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const archived = await h.user(ws, { archived: true });
      const elsewhere = await h.user(await h.workspace());
      const answers = [];
      for (const email of [user.email, 'nobody@example.com', archived.email, elsewhere.email, user.email.toUpperCase()]) {
        const res = await h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email } });
        answers.push([res.status, res.text, res.headers['content-type']]);
      }
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(answers[0]).toEqual([200, '{}', 'application/json; charset=utf-8']);
      const messages = await listMessages(h.app.db, { organizationId: ws.organizationId });
      expect(messages.map((m) => [m.kind, m.to])).toEqual([
        ['signInLink', user.email],
        ['signInLink', user.email],
      ]);
      const { name } = await ok(as(h, ws).get('/api/organization'));
      expect(messages[0].subject).toBe(`Sign in to ${name} on timetrack`);
      expect(messages[0].body).toContain(`the workspace "${name}" on timetrack:\nhttp://${ws.domain}.timetrack.test:3000/\n`);
      expect(messages[0].body).toContain(`http://${ws.domain}.timetrack.test:3000/auth/one-time?token=tto_`);
      expect(await outboxTo(h, 'nobody@example.com')).toEqual([]);
      expect(await outboxTo(h, archived.email)).toEqual([]);
      // Not an email address at all: 422, which tells nothing about accounts.
      expect((await h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: 'not an email' } })).status).toBe(422);
    });

    it('a link mail names the workspace as it is called when the mail is written: after a rename, by its new name', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      expect((await as(h, ws).put('/api/organization', { name: 'Renamed Studio' })).status).toBe(200);
      await ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: user.email } }));
      await ok(h.call('POST', '/api/auth/password-reset', { host: ws.host, body: { email: user.email } }));
      const messages = await listMessages(h.app.db, { organizationId: ws.organizationId });
      expect(messages.filter((m) => m.to === user.email).map((m) => m.subject)).toEqual(['Sign in to Renamed Studio on timetrack', 'Reset your password for Renamed Studio on timetrack']);
    });

    it('the answer takes the same time for a known and an unknown address (held to a fixed minimum)', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const time = async (email: string) => {
        const started = performance.now();
        await ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email } }));
        return performance.now() - started;
      };
      for (const email of [user.email, 'unknown@example.com']) {
        const took = await time(email);
        expect(took).toBeGreaterThanOrEqual(h.config.enumerationFloorMs - 5);
        expect(took).toBeLessThan(h.config.enumerationFloorMs + 1_000);
      }
    });

    it('a sign-in link works once, begins a session of the person with the cookie, and its message keeps no copy of it', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      await ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: user.email } }));
      const token = await mailedToken(h, ws, user.email, 'signInLink');
      const res = await redeem(h, ws, token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ domain: ws.domain, email: user.email, token: expect.stringMatching(/^tts_/), expiresAt: expect.any(String), purpose: 'sign-in' });
      expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(12 * 60 * MINUTE - MINUTE);
      expect(String(res.headers['set-cookie'])).toContain(`timetrack_access_token=${res.body.token};`);
      expect(await ok(h.call('GET', '/api/auth', { host: ws.host, token: res.body.token }))).toEqual({ domain: ws.domain, email: user.email, token: res.body.token, userId: user.userId, role: 'User' });
      // Single use.
      expect((await redeem(h, ws, token)).status).toBe(401);
      const [message] = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.kind === 'signInLink');
      expect(message.body).toBe(EXPIRED_BODY);
      // A person's session is of the account: it is listed as a link sign-in.
      const sessions = await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token: res.body.token }));
      expect(Object.values<any>(sessions).map((s) => [s.method, s.current])).toEqual([['link', true]]);
    });

    it('a sign-in link expires after 15 minutes', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const [fresh, stale] = [0, 1].map(() => ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: user.email } })));
      await Promise.all([fresh, stale]);
      const tokens = (await listMessages(h.app.db, { organizationId: ws.organizationId })).map((m) => TOKEN.exec(m.body)![0]);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 15 * MINUTE - 5_000 });
      expect((await redeem(h, ws, tokens[0])).status).toBe(200);
      vi.setSystemTime(Date.now() + 10_000);
      expect((await redeem(h, ws, tokens[1])).status).toBe(401);
    });

    it('a link is 401 at another workspace\'s host and for a user archived since', async () => {
      const ws = await h.workspace();
      const other = await h.workspace();
      const user = await h.user(ws);
      await ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: user.email } }));
      const token = await mailedToken(h, ws, user.email, 'signInLink');
      expect((await redeem(h, other, token)).status).toBe(401);
      await ok(as(h, ws).put(`/api/users/${user.userId}`, { archived: true }));
      expect((await redeem(h, ws, token)).status).toBe(401);
    });

    it('an invitation carries a single-use sign-in link, valid seven days: the invited person\'s first click signs them in', async () => {
      const ws = await h.workspace();
      await ok(as(h, ws).post('/api/users', { email: 'Invitee@Example.com', name: 'Invitee' }));
      const token = await mailedToken(h, ws, 'invitee@example.com', 'invitation');
      const [message] = await listMessages(h.app.db, { organizationId: ws.organizationId });
      expect(message.body).toContain(`http://${ws.domain}.timetrack.test:3000/auth/one-time?token=${token}`);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 7 * 24 * 60 * MINUTE - 5_000 });
      const res = await redeem(h, ws, token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ email: 'invitee@example.com', purpose: 'invitation' });
      expect((await redeem(h, ws, token)).status).toBe(401);
      vi.useRealTimers();
      // A later invitation's link expires after the week.
      await ok(as(h, ws).post('/api/users', { email: 'invitee@example.com' }));
      const second = await mailedToken(h, ws, 'invitee@example.com', 'invitation');
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 7 * 24 * 60 * MINUTE + 5_000 });
      expect((await redeem(h, ws, second)).status).toBe(401);
    });

    it('the page a link opens (the web app) signs nobody in on a GET; posting the plain form redeems the link, sets the cookie and goes to /', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      await ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: user.email } }));
      const token = await mailedToken(h, ws, user.email, 'signInLink');
      const shown = await h.call('GET', `/auth/one-time?token=${token}`, { host: ws.host, headers: { accept: 'text/html' } });
      expect(shown.status).toBe(200);
      expect(shown.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(shown.headers['set-cookie']).toBeUndefined();
      // The web app's page: its button redeems the link through POST /api/auth/one-time (test/web).
      expect(shown.text).toContain('<div id="app"></div>');
      expect(shown.text).not.toContain(token);
      expect(String(shown.headers['content-security-policy'])).toContain("script-src 'self'");
      // Opening it twice is harmless: the GET used nothing.
      expect((await h.call('GET', `/auth/one-time?token=${token}`, { host: ws.host })).status).toBe(200);
      const form = { host: ws.host, payload: `token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: originOf(ws) } };
      // A form posted from another site is refused, and uses nothing.
      expect((await h.call('POST', '/auth/one-time', { ...form, headers: { ...form.headers, origin: 'https://evil.example' } })).status).toBe(403);
      const posted = await h.call('POST', '/auth/one-time', form);
      expect(posted.status).toBe(303);
      expect(posted.headers.location).toBe('/');
      const cookie = /timetrack_access_token=(tts_[A-Za-z0-9_-]{43});/.exec(String(posted.headers['set-cookie']))![1];
      expect((await h.call('GET', '/api/auth', { host: ws.host, headers: { cookie: `timetrack_access_token=${cookie}` } })).body.email).toBe(user.email);
      // Used: the page and the form say so, and sign nobody in.
      const used = await h.call('GET', `/auth/one-time?token=${token}`, { host: ws.host });
      expect(used.status).toBe(200);
      expect(used.headers['set-cookie']).toBeUndefined();
      expect((await h.call('POST', '/auth/one-time', form)).status).toBe(401);
    });

    it('every link the service mails opens a page, never a 404: support sign-in, sign-in link, reset, invitation, the workspace list', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const { oneTimeToken } = await import('../security/world.js');
      const urls = [`/auth/one-time?token=${await oneTimeToken(h, ws)}`];
      await ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: user.email } }));
      await ok(h.call('POST', '/api/auth/password-reset', { host: ws.host, body: { email: user.email } }));
      await ok(as(h, ws).post('/api/users', { email: 'links@example.com' }));
      await ok(h.call('POST', '/api/auth/find-workspaces', { host: h.config.baseDomain, body: { email: user.email } }));
      const bodies = [...(await listMessages(h.app.db, { organizationId: ws.organizationId })).map((m) => m.body), ...(await outboxTo(h, user.email)).map((m) => m.body)];
      for (const body of bodies) {
        // The support message also names the API route to call (not a link to open): those are /api/ paths.
        for (const link of body.match(/https?:\/\/[^\s]+/g) ?? []) if (!new URL(link).pathname.startsWith('/api/')) urls.push(link);
      }
      expect(urls.length).toBeGreaterThanOrEqual(6);
      for (const link of urls) {
        const url = new URL(link, `http://${ws.host}`);
        const res = await h.call('GET', url.pathname + url.search, { host: url.hostname });
        expect(res.status, link).toBe(200);
        expect(res.headers['content-type'], link).toBe('text/html; charset=utf-8');
        expect(res.text, link).toContain('<div id="app"></div>');
      }
    });

    it('a user holds at most 5 working sign-in and reset links, and an address is mailed 5 workspace lists an hour: past that the same {} and no mail; a used link frees its place', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const other = await h.user(ws);
      const ask = (path: string, email: string, host = ws.host) => h.call('POST', `/api/auth/${path}`, { host, body: { email } });
      for (const path of ['email-link', 'password-reset', 'email-link', 'password-reset', 'email-link', 'email-link', 'password-reset']) {
        const res = await ask(path, user.email);
        expect([res.status, res.text]).toEqual([200, '{}']);
      }
      expect((await outboxTo(h, user.email)).map((m) => m.kind)).toEqual(['signInLink', 'passwordReset', 'signInLink', 'passwordReset', 'signInLink']);
      await ok(ask('email-link', other.email));
      expect(await outboxTo(h, other.email)).toHaveLength(1);

      await ok(redeem(h, ws, await mailedToken(h, ws, user.email, 'signInLink')));
      await ok(ask('email-link', user.email));
      await ok(ask('email-link', user.email));
      expect((await outboxTo(h, user.email)).filter((m) => m.kind === 'signInLink')).toHaveLength(4);

      for (let i = 0; i < 6; i++) await ok(ask('find-workspaces', user.email, h.config.baseDomain));
      expect((await outboxTo(h, user.email)).filter((m) => m.kind === 'workspaceList')).toHaveLength(5);

      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 16 * MINUTE });
      await ok(ask('email-link', user.email));
      await ok(ask('find-workspaces', user.email, h.config.baseDomain));
      const expired = await outboxTo(h, user.email);
      expect([expired.filter((m) => m.kind === 'signInLink').length, expired.filter((m) => m.kind === 'workspaceList').length]).toEqual([5, 5]);
      vi.setSystemTime(Date.now() + 45 * MINUTE);
      await ok(ask('find-workspaces', user.email, h.config.baseDomain));
      const later = await outboxTo(h, user.email);
      expect([later.filter((m) => m.kind === 'signInLink').length, later.filter((m) => m.kind === 'workspaceList').length]).toEqual([5, 6]);
    });

    it('links asked for by someone else keep the owner from a link only while they work: once they expire the owner gets a sign-in link and a reset at once', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      for (let i = 0; i < 6; i++) await ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: user.email } }));
      expect(await outboxTo(h, user.email)).toHaveLength(5);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 14 * MINUTE });
      await ok(h.call('POST', '/api/auth/password-reset', { host: ws.host, body: { email: user.email } }));
      expect(await outboxTo(h, user.email)).toHaveLength(5);
      vi.setSystemTime(Date.now() + 2 * MINUTE);
      await ok(h.call('POST', '/api/auth/password-reset', { host: ws.host, body: { email: user.email } }));
      await ok(h.call('POST', '/api/auth/email-link', { host: ws.host, body: { email: user.email } }));
      const mailed = await outboxTo(h, user.email);
      expect(mailed.map((m) => m.kind)).toEqual([...Array(5).fill('signInLink'), 'passwordReset', 'signInLink']);
      await ok(redeem(h, ws, await mailedToken(h, ws, user.email, 'signInLink')));
    });

    it('POST /auth/find-workspaces at the bare domain mails the address its workspaces, and answers an unknown address alike', async () => {
      const first = await h.workspace();
      const second = await h.workspace();
      const email = `finder-${first.domain}@example.com`;
      await h.user(first, { email });
      await h.user(second, { email });
      await h.user(await h.workspace(), { email, archived: true });
      const known = await h.call('POST', '/api/auth/find-workspaces', { host: h.config.baseDomain, body: { email: email.toUpperCase() } });
      const unknown = await h.call('POST', '/api/auth/find-workspaces', { host: `${h.config.baseDomain}:3000`, body: { email: 'lost@example.com' } });
      expect([known.status, known.text]).toEqual([200, '{}']);
      expect([unknown.status, unknown.text]).toEqual([200, '{}']);
      const messages = await outboxTo(h, email);
      expect(messages).toEqual([{ kind: 'workspaceList', subject: 'Your timetrack workspaces', body: expect.any(String), organization_id: null }]);
      expect(messages[0].body).toContain(`http://${first.domain}.timetrack.test:3000/`);
      expect(messages[0].body).toContain(`http://${second.domain}.timetrack.test:3000/`);
      expect(messages[0].body.match(/http:\/\//g)).toHaveLength(2);
      expect(await outboxTo(h, 'lost@example.com')).toEqual([]);
      // The bare domain serves only this route; unknown hosts stay 404.
      expect((await h.call('POST', '/api/auth/email-link', { host: h.config.baseDomain, body: { email } })).status).toBe(404);
      expect((await h.call('POST', '/api/auth/find-workspaces', { host: 'other.example', body: { email } })).status).toBe(404);
      expect((await h.call('POST', '/api/auth/find-workspaces', { host: `x.${first.domain}.${h.config.baseDomain}`, body: { email } })).status).toBe(404);
    });
  },
  { enumerationFloorMs: 60 },
);

export type { TestUser };
