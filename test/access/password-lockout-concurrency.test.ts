import { randomInt } from 'node:crypto';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';

/** docs/rules.md §7 Lockout: the limits hold however many password checks arrive at once. */

const PASSWORD = 'a long enough passphrase';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const signIn = (h: Harness, ws: TestWorkspace, email: string, password: string, address: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    headers: { host: ws.host, 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password }),
    remoteAddress: address,
  });

/** Addresses of their own on every run: counts Redis keeps from an earlier run never reach them. */
const freshAddresses = (count: number) => {
  const prefix = `10.${randomInt(256)}.${randomInt(256)}`;
  return Array.from({ length: count }, (_, i) => `${prefix}.${i + 1}`);
};

function concurrentWrongPasswords(h: Harness) {
  it('120 wrong passwords sent at once for one account from 4 addresses: at most 10 are checked, the rest are 429, and the right password is refused while locked', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const link = await make.signInLink(h, ws, user);
    const { token: session } = await ok(h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token: link } }));
    await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: session, body: { newPassword: PASSWORD } }));
    const [first, ...addresses] = freshAddresses(5);
    // A right password gives its reserved failure back: more sign-ins than the limit all succeed.
    for (let i = 0; i < 12; i++) expect((await signIn(h, ws, user.email, PASSWORD, first)).statusCode).toBe(200);

    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => signIn(h, ws, user.email, `wrong passphrase ${i}`, addresses[i % 4])));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(10);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(110);
    for (const answer of refused) expect(answer.json()).toMatchObject({ code: 'rate-limited', detail: expect.stringMatching(/^Too many failed sign-ins/) });

    const locked = await signIn(h, ws, user.email, PASSWORD, first);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });
}

describeEachStore('Password lockout under concurrency', concurrentWrongPasswords);

describeEachStore('Password lockout under concurrency, counted in Redis', concurrentWrongPasswords, { redisUrl: REDIS_URL });
