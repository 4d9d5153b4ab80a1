import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { currentCode } from '../support/src.js';

/** docs/rules.md §8 Two-factor codes, Lockout: the limits hold however many codes arrive at once. */

const WRONG_CODE_DETAIL = 'The code is wrong or was used already.';
const CHALLENGE_REFUSED_DETAIL = 'The sign-in challenge is unknown, used, expired or out of attempts: sign in again.';

/** A six-digit code that no step of the ±1 window takes now. */
function wrongCode(secret: string): string {
  const valid = new Set([-30_000, 0, 30_000].map((shift) => currentCode(secret, Date.now() + shift)));
  let code = 0;
  while (valid.has(String(code).padStart(6, '0'))) code += 1;
  return String(code).padStart(6, '0');
}

const verify = (h: Harness, ws: TestWorkspace, body: unknown) => h.call('POST', '/api/auth/two-factor/verify', { host: ws.host, body });

const tally = (answers: { status: number; body: any }[]) => ({
  wrong: answers.filter((a) => a.status === 401 && a.body.detail === WRONG_CODE_DETAIL).length,
  challengeRefused: answers.filter((a) => a.status === 401 && a.body.detail === CHALLENGE_REFUSED_DETAIL).length,
  blocked: answers.filter((a) => a.status === 429).length,
});

describeEachStore('Two-factor lockout under concurrency', (h) => {
  it('300 wrong codes sent at once on one challenge: at most 5 are evaluated, the rest are refused as locked', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const { secret } = await make.twoFactor(h, ws, user);
    const challenge = await make.signInChallenge(h, ws, user);
    const code = wrongCode(secret);
    const answers = await Promise.all(Array.from({ length: 300 }, () => verify(h, ws, { challenge, code })));
    const counted = tally(answers);
    expect(counted.wrong).toBe(5);
    expect(counted.challengeRefused + counted.blocked).toBe(295);
    // The challenge is out of attempts, even for the right code.
    expect((await verify(h, ws, { challenge, code: currentCode(secret) })).body.detail).toBe(CHALLENGE_REFUSED_DETAIL);
    // And the account's codes are blocked: a new challenge with the right code is 429 for 15 minutes.
    const blocked = await verify(h, ws, { challenge: await make.signInChallenge(h, ws, user), code: currentCode(secret) });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });

  it('300 wrong codes sent at once over 60 challenges of one account: at most 5 are evaluated, the rest are 429, the right code too', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const { secret } = await make.twoFactor(h, ws, user);
    const challenges = await Promise.all(Array.from({ length: 60 }, () => make.signInChallenge(h, ws, user)));
    const code = wrongCode(secret);
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => verify(h, ws, { challenge: challenges[i % 60], code })));
    const counted = tally(answers);
    expect(counted.wrong).toBe(5);
    expect(counted.blocked).toBe(295);
    const blocked = await verify(h, ws, { challenge: challenges[59], code: currentCode(secret) });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });

  it('300 wrong recovery codes sent at once to disable 2FA: at most 5 are evaluated (422), the rest are 429, and a right recovery code is refused while blocked', async () => {
    const ws = await h.workspace();
    const { secret, recoveryCodes } = await make.twoFactor(h, ws, ws.admin);
    const api = as(h, ws);
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => api.post('/api/auth/two-factor/disable', { recoveryCode: `wrong-${i}` })));
    expect(answers.filter((a) => a.status === 422)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(295);
    expect((await api.post('/api/auth/two-factor/disable', { recoveryCode: recoveryCodes[0] })).status).toBe(429);
    expect((await api.post('/api/auth/two-factor/disable', { code: currentCode(secret, Date.now() + 30_000) })).status).toBe(429);
    expect((await api.get('/api/auth/two-factor')).body.enabled).toBe(true);
  });
});
