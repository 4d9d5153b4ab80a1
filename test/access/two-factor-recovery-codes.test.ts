import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok } from '../support/harness.js';

describeEachStore('New recovery codes (docs/rules.md §8 Two-factor codes)', (h) => {
  it('a recovery code answers ten new codes, once: the earlier ones (used or not) stop working, the new ones work, the secret stays', async () => {
    const ws = await h.workspace();
    const api = as(h, ws, ws.admin);
    const { recoveryCodes } = await make.twoFactor(h, ws, ws.admin);
    const renewed = await ok(api.post('/api/auth/two-factor/recovery-codes', { recoveryCode: recoveryCodes[0] }));
    expect(renewed.recoveryCodes).toHaveLength(10);
    expect(new Set(renewed.recoveryCodes).size).toBe(10);
    for (const code of renewed.recoveryCodes) expect(recoveryCodes).not.toContain(code);
    expect(await ok(api.get('/api/auth/two-factor'))).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10, requiredByWorkspace: false });
    const old = await api.post('/api/auth/two-factor/recovery-codes', { recoveryCode: recoveryCodes[1] });
    expect(old.status).toBe(422);
    expect(old.body.errors).toEqual([{ pointer: '/body/recoveryCode', message: 'is not a valid code for this account' }]);
    await ok(api.post('/api/auth/two-factor/disable', { recoveryCode: renewed.recoveryCodes[0].toUpperCase() }));
  });

  it('without 2FA on it is 409; with both or neither of code and recoveryCode it is 422 at /body', async () => {
    const ws = await h.workspace();
    const api = as(h, ws, ws.admin);
    const none = await api.post('/api/auth/two-factor/recovery-codes', { code: '123456' });
    expect(none.status).toBe(409);
    expect(none.body.detail).toBe('Two-factor authentication is not on for this account.');
    await ok(api.post('/api/auth/two-factor'));
    expect((await api.post('/api/auth/two-factor/recovery-codes', { code: '123456' })).status).toBe(409);
    const neither = await api.post('/api/auth/two-factor/recovery-codes', {});
    expect(neither.status).toBe(422);
    expect(neither.body.errors).toEqual([{ pointer: '/body', message: 'must carry exactly one of code and recoveryCode' }]);
  });
});
