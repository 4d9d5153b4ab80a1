import { expect, it } from 'vitest';
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
  const { recoveryCodes } = await ok(api.post('/api/auth/two-factor/confirm', { code: codesAround(secret).previous }));
  return { secret, recoveryCodes };
}

describeEachStore('Two-factor codes (docs/rules.md §2 Two-factor codes)', (h) => {
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
});
