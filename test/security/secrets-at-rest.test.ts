import { expect, it } from 'vitest';
import { dumpAll, type Dump } from './world.js';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, TEST_SECRET_KEY, type Harness, type TestWorkspace } from '../support/harness.js';
import { currentCode, deliverPending, EXPIRED_BODY, hashToken, listMessages, sealerOf } from '../support/src.js';

/**
 * Secrets at rest: every API key, session token and one-time sign-in token the
 * service issues is stored only as its SHA-256 digest (api_keys.prefix keeps the first 8 of its 43
 * random characters, to tell keys apart), and none reaches the logs.
 *
 * The one exception, by design: the outbox. A resolved impersonation request must mail a sign-in
 * link, and the transactional outbox holds the message, link included, until it is delivered (and
 * afterwards, as the record of what was sent; without SMTP_URL the operator reads it with
 * `timetrack outbox list`), but only while the token can be used: redeemed or expired, the message's
 * body is replaced. The tests below prove it is dead and gone once redeemed or expired, and that no
 * other table holds it.
 *
 * Webhook signing secrets cannot be kept as digests: the service signs every delivery with them. They
 * are stored sealed (AES-256-GCM, lib/sealing.ts) under the server secret, like TOTP secrets: a dump
 * without SECRET_KEY (or its key file) cannot be unsealed (docs/webhooks.md).
 */

interface Secret {
  kind: string;
  value: string;
}

/** Where a secret (or its 43 random characters) turns up in the dump: `table.column` for each hit. */
function hitsIn(dump: Dump, secret: string): string[] {
  const body = secret.slice(4);
  const hits: string[] = [];
  for (const [table, rows] of Object.entries(dump)) {
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
        if (text.includes(secret) || text.includes(body)) hits.push(`${table}.${column}`);
      }
    }
  }
  return hits;
}

/** Resolves an impersonation request as the workspace's admin; answers the token its supportSignIn message carries. */
async function signInLinkToken(h: Harness, ws: TestWorkspace): Promise<string> {
  const before = new Set((await listMessages(h.app.db, { organizationId: ws.organizationId })).map((m) => m.id));
  const request = await make.request(h, ws, { kind: 'impersonation', reason: 'secrets suite' });
  await ok(as(h, ws).put(`/api/requests/${request.id}`, { status: 'RESOLVED' }));
  const message = (await listMessages(h.app.db, { organizationId: ws.organizationId })).find((m) => !before.has(m.id))!;
  expect(message.kind).toBe('supportSignIn');
  return /tto_[A-Za-z0-9_-]{43}/.exec(message.body)![0];
}

const redeem = (h: Harness, ws: TestWorkspace, token: string) => h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token } });

describeEachStore(
  'Secrets at rest',
  (h: Harness) => {
    it('no API key, session token or one-time token issued is in any table (outbox links aside) or in the logs', async () => {
      const secrets: Secret[] = [];
      // API keys: made as `timetrack workspace create` makes them, with POST /api-keys, and as `timetrack apikey create` does.
      const ws = await h.workspace();
      secrets.push({ kind: 'API key (workspace create)', value: ws.admin.token });
      const created = await ok(as(h, ws).post('/api/api-keys', { name: 'deploy' }));
      secrets.push({ kind: 'API key (POST /api-keys)', value: created.key });
      const user = await h.user(ws);
      secrets.push({ kind: 'API key (apikey create)', value: user.token });
      // One-time sign-in tokens: one redeemed for a session, one left unused.
      const redeemed = await signInLinkToken(h, ws);
      const unused = await signInLinkToken(h, ws);
      secrets.push({ kind: 'one-time token (redeemed)', value: redeemed }, { kind: 'one-time token (unused)', value: unused });
      // Someone opens the mailed link, and someone pastes keys into URLs: the request lines are logged.
      await h.call('GET', `/auth/one-time?token=${unused}`, { host: ws.host });
      await h.call('GET', `/api/auth?access_token=${created.key}`, { host: ws.host });
      await h.call('GET', `/api/users/${user.token}`, { host: ws.host, token: ws.admin.token });
      const session = await ok(redeem(h, ws, redeemed));
      secrets.push({ kind: 'session token', value: session.token });
      // Every token is used, well and badly: at its host, at another, and after revocation.
      const other = await h.workspace();
      for (const { value } of secrets.filter((s) => !s.kind.startsWith('one-time'))) {
        expect((await h.call('GET', '/api/auth', { host: ws.host, token: value })).status).toBe(200);
        expect((await h.call('GET', '/api/auth', { host: other.host, token: value })).status).toBe(401);
      }
      await ok(as(h, ws).delete(`/api/api-keys/${created.id}`));
      expect((await h.call('GET', '/api/auth', { host: ws.host, token: created.key })).status).toBe(401);
      expect((await redeem(h, ws, redeemed)).status).toBe(401);

      const dump = await dumpAll(h);
      expect(Object.keys(dump)).toEqual(expect.arrayContaining(['api_keys', 'sessions', 'one_time_tokens', 'outbox']));
      const found: string[] = [];
      for (const { kind, value } of secrets) {
        const allowed = kind.startsWith('one-time') ? ['outbox.body'] : [];
        for (const hit of hitsIn(dump, value)) if (!allowed.includes(hit)) found.push(`${kind} in ${hit}`);
        for (const line of h.logs) if (line.includes(value) || line.includes(value.slice(4))) found.push(`${kind} in the log: ${line}`);
      }
      expect(found).toEqual([]);
      // What is stored instead: the digests.
      const storedKeys = dump.api_keys.map((row) => row.token_hash);
      expect(storedKeys).toEqual(expect.arrayContaining([hashToken(ws.admin.token), hashToken(user.token)]));
      expect(dump.sessions.map((row) => row.token_hash)).toContain(hashToken(session.token));
      expect(dump.one_time_tokens.map((row) => row.token_hash)).toEqual(expect.arrayContaining([hashToken(redeemed), hashToken(unused)]));
      // Each request wrote its access line by route pattern: the URL, where the tokens were, is not logged at all.
      const logged = h.logs.join('\n');
      expect(logged).toContain('"route":"/api/users/:userId"');
      expect(logged).toContain('"route":"/api/auth"');
      expect(logged).not.toContain('"url"');
      console.log(`[${h.store}] secrets at rest: ${secrets.length} secrets issued, ${Object.keys(dump).length} tables and ${h.logs.length} log lines searched, 0 found`);
    });

    it('a webhook signing secret, created or rotated, is in no table nor in the logs: only sealed, and unsealed only with its key', async () => {
      const ws = await h.workspace();
      const created = await ok(as(h, ws).post('/api/webhooks', { url: 'https://hooks.example.com/secrets', events: ['*'] }));
      const rotated = await ok(as(h, ws).post(`/api/webhooks/${created.id}/rotate-secret`));
      const dump = await dumpAll(h);
      for (const secret of [created.secret, rotated.secret]) {
        expect(hitsIn(dump, secret)).toEqual([]);
        expect(h.logs.filter((line) => line.includes(secret.slice(6)))).toEqual([]);
      }
      const [row] = dump.webhooks.filter((hook) => hook.id === created.id);
      expect(row.secret_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      const purpose = 'webhook-signing-secret';
      expect(sealerOf(TEST_SECRET_KEY).open(purpose, String(row.secret_sealed))).toBe(rotated.secret);
      expect(sealerOf(TEST_SECRET_KEY).open(purpose, String(row.previous_secret_sealed))).toBe(created.secret);
      expect(sealerOf('another key of at least thirty-two characters').open(purpose, String(row.secret_sealed))).toBeUndefined();
    });

    it('no password is in any table or in the logs: set after a link, changed, reset through the page, tried right and wrong, in JSON and in forms', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const passwords = ['first passphrase ü 1', 'second passphrase 2', 'wrong passphrase 3', 'page passphrase 4', 'form wrong passphrase 5'];
      const linkToken = async (route: string) => {
        await ok(h.call('POST', route, { host: ws.host, body: { email: user.email } }));
        return /tto_[A-Za-z0-9_-]{43}/.exec((await listMessages(h.app.db, { organizationId: ws.organizationId })).at(-1)!.body)![0];
      };
      const session = await ok(redeem(h, ws, await linkToken('/api/auth/email-link')));
      const tokens = [session.token];
      await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: session.token, body: { newPassword: passwords[0] } }));
      await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: session.token, body: { currentPassword: passwords[0], newPassword: passwords[1] } }));
      expect((await h.call('POST', '/api/auth/sign-in', { host: ws.host, body: { email: user.email, password: passwords[2] } })).status).toBe(401);
      tokens.push((await ok(h.call('POST', '/api/auth/sign-in', { host: ws.host, body: { email: user.email, password: passwords[1] } }))).token);
      const form = (url: string, payload: string) =>
        h.call('POST', url, { host: ws.host, payload, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${ws.domain}.timetrack.test:3000` } });
      const reset = await linkToken('/api/auth/password-reset');
      expect((await form('/auth/one-time', `token=${reset}&newPassword=${encodeURIComponent(passwords[3])}`)).status).toBe(303);
      expect((await form('/auth/sign-in', `email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(passwords[4])}`)).status).toBe(401);
      expect((await form('/auth/sign-in', `email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(passwords[3])}`)).status).toBe(303);
      const dump = await dumpAll(h);
      const found: string[] = [];
      for (const password of passwords) {
        for (const [table, rows] of Object.entries(dump)) {
          for (const row of rows) if (JSON.stringify(row).includes(password)) found.push(`${password} in ${table}`);
        }
        for (const line of h.logs) if (line.includes(password) || line.includes(encodeURIComponent(password))) found.push(`${password} in the log: ${line}`);
      }
      for (const token of tokens) for (const hit of hitsIn(dump, token)) found.push(`session token in ${hit}`);
      expect(found).toEqual([]);
      const account = dump.accounts.find((row) => row.email === user.email)!;
      expect(account.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('the outbox\'s sign-in link is the only copy of its token, and the token dies with its first use', async () => {
      const ws = await h.workspace();
      const token = await signInLinkToken(h, ws);
      const dump = await dumpAll(h);
      expect(hitsIn(dump, token)).toEqual(['outbox.body']);
      const first = await redeem(h, ws, token);
      expect(first.status).toBe(200);
      const again = await redeem(h, ws, token);
      expect(again.status).toBe(401);
      expect(again.body.code).toBe('unauthorized');
    });

    it('the outbox keeps a sign-in link only while it can be used: redeemed or expired, the message no longer holds the token', async () => {
      const ws = await h.workspace();
      const used = await signInLinkToken(h, ws);
      const unused = await signInLinkToken(h, ws);
      const bodies = async () => (await listMessages(h.app.db, { organizationId: ws.organizationId })).map((m) => m.body);
      expect(hitsIn(await dumpAll(h), used)).toEqual(['outbox.body']);
      // Redeemed: its message's text is gone in the same transaction; the other link is still there.
      expect((await redeem(h, ws, used)).status).toBe(200);
      expect(hitsIn(await dumpAll(h), used)).toEqual([]);
      expect(hitsIn(await dumpAll(h), unused)).toEqual(['outbox.body']);
      // Expired: the mail worker's next pass after the hour removes it, SMTP or not; before the hour it stays.
      await deliverPending(h.app, { now: new Date(Date.now() + 59 * 60_000) });
      expect(hitsIn(await dumpAll(h), unused)).toEqual(['outbox.body']);
      await deliverPending(h.app, { now: new Date(Date.now() + 61 * 60_000) });
      expect(hitsIn(await dumpAll(h), unused)).toEqual([]);
      expect(await bodies()).toEqual([EXPIRED_BODY, EXPIRED_BODY]);
    });

    it('a sign-in link token past its hour is unusable, and an unused one is bound to its workspace', async () => {
      const ws = await h.workspace();
      const other = await h.workspace();
      const token = await signInLinkToken(h, ws);
      expect((await redeem(h, other, token)).status).toBe(401);
      await h.app.db
        .updateTable('one_time_tokens')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', hashToken(token))
        .execute();
      const expired = await redeem(h, ws, token);
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('unauthorized');
    });

    it('no TOTP secret, recovery code or sign-in challenge is in any table or in the logs: secrets sealed, codes as keyed digests (docs/rules.md §8)', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const api = as(h, ws, user);
      const enrolment = await ok(api.post('/api/auth/two-factor'));
      const { recoveryCodes } = await ok(api.post('/api/auth/two-factor/confirm', { code: currentCode(enrolment.secret) }));
      // A link sign-in answers a challenge; a recovery code finishes it.
      const { challenge } = await ok(h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token: await make.signInLink(h, ws, user) } }));
      await ok(h.call('POST', '/api/auth/two-factor/verify', { host: ws.host, body: { challenge, recoveryCode: recoveryCodes[0] } }));
      // A second person enrols and leaves it pending: that secret is sealed too.
      const pending = await ok(as(h, ws).post('/api/auth/two-factor'));
      const secrets: Secret[] = [
        { kind: 'TOTP secret', value: enrolment.secret },
        { kind: 'pending TOTP secret', value: pending.secret },
        { kind: 'sign-in challenge', value: challenge },
        ...recoveryCodes.flatMap((code: string) => [
          { kind: 'recovery code', value: code },
          { kind: 'recovery code as typed', value: code.replace('-', '') },
        ]),
      ];
      const dump = await dumpAll(h);
      expect(Object.keys(dump)).toEqual(expect.arrayContaining(['two_factor_secrets', 'recovery_codes', 'sign_in_challenges']));
      expect(dump.recovery_codes.length).toBeGreaterThanOrEqual(10);
      const found: string[] = [];
      for (const { kind, value } of secrets) {
        for (const [table, rows] of Object.entries(dump)) {
          for (const row of rows) {
            for (const [column, stored] of Object.entries(row)) {
              const text = typeof stored === 'string' ? stored : JSON.stringify(stored ?? null);
              if (text.toLowerCase().includes(value.toLowerCase())) found.push(`${kind} in ${table}.${column}`);
            }
          }
        }
        for (const line of h.logs) if (line.includes(value)) found.push(`${kind} in the log: ${line}`);
      }
      expect(found).toEqual([]);
      // What is stored instead: AES-256-GCM sealed secrets and digests.
      for (const row of dump.two_factor_secrets) expect(row.secret).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(dump.sign_in_challenges.map((row) => row.token_hash)).toContain(hashToken(challenge));
    });

    it('the Authorization header and cookies are redacted wherever a headers object is logged', async () => {
      const ws = await h.workspace();
      const cookie = `timetrack_access_token=${ws.admin.token}`;
      h.app.log.info({ headers: { authorization: `Bearer ${ws.admin.token}`, cookie } }, 'headers probe');
      h.app.log.info({ req: { headers: { authorization: `Bearer ${ws.admin.token}`, cookie } } }, 'request probe');
      await h.call('GET', '/api/auth', { host: ws.host, token: ws.admin.token, headers: { cookie } });
      const lines = h.logs.filter((line) => line.includes('probe'));
      expect(lines).toHaveLength(2);
      expect(JSON.parse(lines[0]).headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]' });
      for (const line of h.logs) expect(line).not.toContain(ws.admin.token.slice(4));
    });
  },
  // Everything the service can log, it logs.
  { logLevel: 'trace' },
);
