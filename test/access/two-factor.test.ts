import { describe, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { currentCode } from '../support/src.js';

/** Codes of the step before, the current one and the step after: three codes the ±1 window takes, in increasing steps. */
const codesAround = (secret: string) => ({
  previous: currentCode(secret, Date.now() - 30_000),
  now: currentCode(secret),
  next: currentCode(secret, Date.now() + 30_000),
});

/** A user signed in with a session (as a sign-in makes one): calls through it. */
async function signedIn(h: Harness, ws: TestWorkspace, user: TestUser = ws.admin) {
  const token = await make.session(h, user.userId);
  return { token, api: as(h, ws, { ...user, token }) };
}

/** Enrols and confirms 2FA for the caller; answers the secret and the recovery codes. */
async function enable(api: ReturnType<typeof as>): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = await ok(api.post('/api/auth/two-factor'));
  // The previous step's code leaves the current and next ones unused; it must not fall out of the
  // ±1 window on its way, as it would if a new step began meanwhile.
  const intoStep = Date.now() % 30_000;
  if (intoStep > 25_000) await new Promise((resolve) => setTimeout(resolve, 30_100 - intoStep));
  const { recoveryCodes } = await ok(api.post('/api/auth/two-factor/confirm', { code: codesAround(secret).previous }));
  return { secret, recoveryCodes };
}

describeEachStore('Two-factor codes (docs/rules.md §8 Two-factor codes)', (h) => {
  it('enrolment answers the secret once as base32, an otpauth:// URI naming the account, and an SVG QR code; status shows it pending', async () => {
    const ws = await h.workspace();
    const { api } = await signedIn(h, ws);
    const enrolment = await ok(api.post('/api/auth/two-factor'));
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\//);
    const uri = new URL(enrolment.uri);
    expect(decodeURIComponent(uri.pathname)).toContain(ws.admin.email);
    expect(uri.searchParams.get('secret')).toBe(enrolment.secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(enrolment.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(await ok(api.get('/api/auth/two-factor'))).toEqual({ enabled: false, pending: true, recoveryCodesLeft: 0, requiredByWorkspace: false });
  });

  it('confirming with a current code turns 2FA on and answers ten distinct recovery codes, once; a wrong code is 422 and changes nothing', async () => {
    const ws = await h.workspace();
    const { api } = await signedIn(h, ws);
    expect((await api.post('/api/auth/two-factor/confirm', { code: '123456' })).status).toBe(409);
    const { secret } = await ok(api.post('/api/auth/two-factor'));
    const wrong = await api.post('/api/auth/two-factor/confirm', { code: String((Number(codesAround(secret).now) + 500_000) % 1_000_000).padStart(6, '0') });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].pointer).toBe('/body/code');
    expect((await ok(api.get('/api/auth/two-factor'))).enabled).toBe(false);
    const { recoveryCodes } = await ok(api.post('/api/auth/two-factor/confirm', { code: codesAround(secret).now }));
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await ok(api.get('/api/auth/two-factor'))).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10, requiredByWorkspace: false });
    // On: a second enrolment or confirmation is a conflict, not a silent replacement.
    expect((await api.post('/api/auth/two-factor')).status).toBe(409);
    expect((await api.post('/api/auth/two-factor/confirm', { code: codesAround(secret).next })).status).toBe(409);
  });

  it('2FA belongs to the account: enabled through one workspace, it shows in every workspace of the person', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const there = await h.user(other, { email: ws.admin.email });
    await enable((await signedIn(h, ws)).api);
    expect((await ok(as(h, other, there).get('/api/auth/two-factor'))).enabled).toBe(true);
  });

  it('a code works once: the code that confirmed the enrolment cannot disable it (replay refused), a later one can', async () => {
    const ws = await h.workspace();
    const { api } = await signedIn(h, ws);
    const { secret } = await ok(api.post('/api/auth/two-factor'));
    const codes = codesAround(secret);
    await ok(api.post('/api/auth/two-factor/confirm', { code: codes.now }));
    const replay = await api.post('/api/auth/two-factor/disable', { code: codes.now });
    expect(replay.status).toBe(422);
    // A code of an earlier step than the last one used is a replay too.
    expect((await api.post('/api/auth/two-factor/disable', { code: codes.previous })).status).toBe(422);
    await ok(api.post('/api/auth/two-factor/disable', { code: codes.next }));
    expect(await ok(api.get('/api/auth/two-factor'))).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0, requiredByWorkspace: false });
  });

  it('a recovery code disables 2FA once, in any case and without its dash; exactly one proof is required', async () => {
    const ws = await h.workspace();
    const { api } = await signedIn(h, ws);
    const { recoveryCodes, secret } = await enable(api);
    expect((await api.post('/api/auth/two-factor/disable', {})).status).toBe(422);
    const both = await api.post('/api/auth/two-factor/disable', { code: codesAround(secret).next, recoveryCode: recoveryCodes[0] });
    expect(both.status).toBe(422);
    expect(both.body.errors[0].pointer).toBe('/body');
    await ok(api.post('/api/auth/two-factor/disable', { recoveryCode: recoveryCodes[0].toUpperCase().replace('-', '') }));
    expect((await ok(api.get('/api/auth/two-factor'))).enabled).toBe(false);
  });

  it('five wrong codes in a row refuse every code of the account for 15 minutes (429 with Retry-After), the right one included', async () => {
    const ws = await h.workspace();
    const { api } = await signedIn(h, ws);
    const { secret, recoveryCodes } = await enable(api);
    for (let i = 0; i < 5; i++) {
      expect((await api.post('/api/auth/two-factor/disable', { recoveryCode: `wrong-${i}` })).status).toBe(422);
    }
    const blocked = await api.post('/api/auth/two-factor/disable', { code: codesAround(secret).next });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect((await api.post('/api/auth/two-factor/disable', { recoveryCode: recoveryCodes[1] })).status).toBe(429);
    expect((await ok(api.get('/api/auth/two-factor'))).enabled).toBe(true);
  });

  it('a support session may not read or change 2FA, nor the sign-in settings (403)', async () => {
    const ws = await h.workspace();
    const support = await make.session(h, ws.admin.userId, { actingIn: ws });
    const api = as(h, ws, { ...ws.admin, token: support });
    expect((await api.get('/api/auth/two-factor')).status).toBe(403);
    expect((await api.post('/api/auth/two-factor')).status).toBe(403);
    expect((await api.put('/api/auth/settings', { twoFactorRequired: true })).status).toBe(403);
  });

  it('sign-in settings: administrators read and change them, fields left out keep their value, domains are stored lower case once', async () => {
    const ws = await h.workspace();
    expect(await ok(as(h, ws).get('/api/auth/settings'))).toEqual({ twoFactorRequired: false, invitationDomains: [] });
    expect(await ok(as(h, ws).put('/api/auth/settings', { invitationDomains: ['Example.COM', 'example.com', 'corp.example.org'] }))).toEqual({
      twoFactorRequired: false,
      invitationDomains: ['example.com', 'corp.example.org'],
    });
    expect(await ok(as(h, ws).put('/api/auth/settings', { twoFactorRequired: true }))).toEqual({
      twoFactorRequired: true,
      invitationDomains: ['example.com', 'corp.example.org'],
    });
    const bad = await as(h, ws).put('/api/auth/settings', { invitationDomains: ['example.com', 'not a domain'] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].pointer).toBe('/body/invitationDomains/1');
    const user = await h.user(ws);
    expect((await as(h, ws, user).get('/api/auth/settings')).status).toBe(403);
    expect((await as(h, ws, user).put('/api/auth/settings', { twoFactorRequired: false })).status).toBe(403);
    expect((await ok(as(h, ws, user).get('/api/auth/two-factor'))).requiredByWorkspace).toBe(true);
  });

  it('a workspace that requires 2FA lets a signed-in person without it only enrol (403 two-factor-required elsewhere), until they confirm', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await ok(as(h, ws).put('/api/auth/settings', { twoFactorRequired: true }));
    const { api } = await signedIn(h, ws, user);
    const refused = await api.get('/api/projects');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('two-factor-required');
    expect((await api.post('/api/activities', { name: 'x', startedAt: '2026-01-05T09:00:00Z' })).status).toBe(403);
    // What they may do meanwhile: see who they are and where, and enrol.
    expect((await api.get('/api/auth')).status).toBe(200);
    expect((await api.get('/api/organization')).status).toBe(200);
    expect((await ok(api.get('/api/auth/two-factor'))).requiredByWorkspace).toBe(true);
    await enable(api);
    expect((await api.get('/api/projects')).status).toBe(200);
    // API keys are not held by the requirement.
    expect((await as(h, ws, user).get('/api/projects')).status).toBe(200);
  });

  it('the requirement holds only in the workspace that sets it', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    await h.user(other, { email: ws.admin.email });
    await ok(as(h, other).put('/api/auth/settings', { twoFactorRequired: true }));
    const token = await make.session(h, ws.admin.userId);
    expect((await h.call('GET', '/api/projects', { host: ws.host, token })).status).toBe(200);
    const held = await h.call('GET', '/api/projects', { host: other.host, token });
    expect(held.status).toBe(403);
    expect(held.body.code).toBe('two-factor-required');
  });

  describe('a sign-in of an account with 2FA on', () => {
    const redeem = (ws: TestWorkspace, token: string) => h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token } });
    const verify = (ws: TestWorkspace, body: unknown) => h.call('POST', '/api/auth/two-factor/verify', { host: ws.host, body });

    it('answers a challenge and no session or cookie; the challenge and a current code then give the session and its cookie', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const { secret } = await make.twoFactor(h, ws, user);
      const first = await redeem(ws, await make.signInLink(h, ws, user));
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        domain: ws.domain,
        email: user.email,
        purpose: 'sign-in',
        twoFactorRequired: true,
        challenge: expect.stringMatching(/^ttc_[A-Za-z0-9_-]{43}$/),
        expiresAt: expect.any(String),
      });
      expect(Date.parse(first.body.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
      expect(first.headers['set-cookie']).toBeUndefined();
      // The challenge is no bearer token.
      expect((await h.call('GET', '/api/auth', { host: ws.host, token: first.body.challenge })).status).toBe(401);
      const second = await verify(ws, { challenge: first.body.challenge, code: currentCode(secret) });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ token: expect.stringMatching(/^tts_/), expiresAt: expect.any(String) });
      expect(String(second.headers['set-cookie'])).toContain(`timetrack_access_token=${second.body.token}`);
      expect(String(second.headers['set-cookie'])).toContain('HttpOnly');
      const me = await ok(h.call('GET', '/api/auth', { host: ws.host, token: second.body.token }));
      expect(me.email).toBe(user.email);
      // The session remembers how the sign-in began.
      const sessions = await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token: second.body.token }));
      expect(Object.values(sessions).find((session: any) => session.current)).toMatchObject({ method: 'link' });
    });

    it('a password sign-in answers a challenge too, with no session or cookie; the code then gives the session', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const session = await ok(redeem(ws, await make.signInLink(h, ws, user)));
      await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: session.token, body: { newPassword: 'a passphrase with codes' } }));
      const { secret } = await make.twoFactor(h, ws, user);
      const first = await h.call('POST', '/api/auth/sign-in', { host: ws.host, body: { email: user.email, password: 'a passphrase with codes' } });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        domain: ws.domain,
        email: user.email,
        twoFactorRequired: true,
        challenge: expect.stringMatching(/^ttc_[A-Za-z0-9_-]{43}$/),
        expiresAt: expect.any(String),
      });
      expect(first.headers['set-cookie']).toBeUndefined();
      const second = await verify(ws, { challenge: first.body.challenge, code: currentCode(secret) });
      expect(second.status).toBe(200);
      const sessions = await ok(h.call('GET', '/api/auth/sessions', { host: ws.host, token: second.body.token }));
      expect(Object.values(sessions).find((one: any) => one.current)).toMatchObject({ method: 'password' });
    });

    it('a challenge works once: used, it is 401, and so is the same code again with a new challenge (replay)', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const { secret } = await make.twoFactor(h, ws, user);
      const challenge = await make.signInChallenge(h, ws, user);
      const code = currentCode(secret);
      await ok(verify(ws, { challenge, code }));
      const again = await verify(ws, { challenge, code: currentCode(secret, Date.now() + 30_000) });
      expect(again.status).toBe(401);
      expect(again.body.code).toBe('unauthorized');
      const replay = await verify(ws, { challenge: await make.signInChallenge(h, ws, user), code });
      expect(replay.status).toBe(401);
    });

    it('a wrong code is 401 and the challenge stays usable; a recovery code works once instead of a code', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const { recoveryCodes } = await make.twoFactor(h, ws, user);
      const challenge = await make.signInChallenge(h, ws, user);
      expect((await verify(ws, { challenge, recoveryCode: 'aaaaa-aaaaa' })).status).toBe(401);
      await ok(verify(ws, { challenge, recoveryCode: recoveryCodes[3] }));
      const reused = await verify(ws, { challenge: await make.signInChallenge(h, ws, user), recoveryCode: recoveryCodes[3] });
      expect(reused.status).toBe(401);
      expect((await ok(as(h, ws, user).get('/api/auth/two-factor'))).recoveryCodesLeft).toBe(9);
    });

    it('a challenge is bound to its workspace and its five minutes', async () => {
      const ws = await h.workspace();
      const other = await h.workspace();
      const user = await h.user(ws);
      const { secret } = await make.twoFactor(h, ws, user);
      const challenge = await make.signInChallenge(h, ws, user);
      expect((await verify(other, { challenge, code: currentCode(secret) })).status).toBe(401);
      await h.app.db.updateTable('sign_in_challenges').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
      expect((await verify(ws, { challenge, code: currentCode(secret) })).status).toBe(401);
    });

    it('a support link signs in without a code: the administrator consented, and the account\'s owner is not the one signing in', async () => {
      const ws = await h.workspace();
      await make.twoFactor(h, ws, ws.admin);
      const { oneTimeToken } = await import('../security/world.js');
      const answer = await ok(redeem(ws, await oneTimeToken(h, ws)));
      expect(answer.token).toMatch(/^tts_/);
      expect(answer.twoFactorRequired).toBeUndefined();
    });
  });
});
