import { expect, it } from 'vitest';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { API_KEYS_PER_USER } from '../support/src.js';

/** POSTs /api-keys as the user until they hold `count` keys (a user made by the factories holds one). */
async function fillKeys(h: Harness, ws: TestWorkspace, user: TestUser, count: number): Promise<void> {
  const held = Object.keys((await as(h, ws, user).get('/api/api-keys')).body).length;
  for (let i = held; i < count; i++) expect((await as(h, ws, user).post('/api/api-keys', { name: `key ${i}` })).status).toBe(200);
}

describeEachStore('API keys (Settings → Integrations → API)', (h) => {
  it('POST /api-keys returns the secret once; GET /api-keys lists the caller\'s keys without it', async () => {
    const ws = await h.workspace();
    const created = await as(h, ws).post('/api/api-keys', { name: '  CI pipeline ' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'CI pipeline',
      prefix: created.body.key.slice(0, 12),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      lastUsedAt: null,
      key: expect.stringMatching(/^ttk_[A-Za-z0-9_-]{43}$/),
    });
    const list = await as(h, ws).get('/api/api-keys');
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toHaveLength(2);
    expect(list.body[created.body.id]).toEqual({
      id: created.body.id,
      name: 'CI pipeline',
      prefix: created.body.prefix,
      createdAt: created.body.createdAt,
      lastUsedAt: null,
    });
    expect(list.text).not.toContain(created.body.key);
  });

  it('lastUsedAt is set when a key is used', async () => {
    const ws = await h.workspace();
    const created = await as(h, ws).post('/api/api-keys', { name: 'used' });
    await as(h, ws, { ...ws.admin, token: created.body.key }).get('/api/auth');
    const list = await as(h, ws).get('/api/api-keys');
    expect(list.body[created.body.id].lastUsedAt).toMatch(/Z$/);
  });

  it('a user sees and deletes only their own keys (another user\'s key is 404)', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const adminKeys = await as(h, ws).get('/api/api-keys');
    const adminKeyId = Object.keys(adminKeys.body)[0];
    const userKeys = await as(h, ws, user).get('/api/api-keys');
    expect(Object.keys(userKeys.body)).not.toContain(adminKeyId);
    const res = await as(h, ws, user).delete(`/api/api-keys/${adminKeyId}`);
    expect(res.status).toBe(404);
    expect((await as(h, ws).get('/api/auth')).status).toBe(200);
  });

  it('DELETE /api-keys/{id} answers {} and the key stops working', async () => {
    const ws = await h.workspace();
    const created = await as(h, ws).post('/api/api-keys', { name: 'short-lived' });
    const res = await as(h, ws).delete(`/api/api-keys/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await as(h, ws, { ...ws.admin, token: created.body.key }).get('/api/auth')).status).toBe(401);
  });

  it('a key name must be 1–200 characters after trimming', async () => {
    const ws = await h.workspace();
    expect((await as(h, ws).post('/api/api-keys', { name: '' })).status).toBe(422);
    expect((await as(h, ws).post('/api/api-keys', { name: 'x'.repeat(201) })).status).toBe(422);
    expect((await as(h, ws).post('/api/api-keys', {})).status).toBe(422);
    expect((await as(h, ws).post('/api/api-keys', { name: '   ' })).body.errors).toEqual([{ pointer: '/body/name', message: 'must not be blank' }]);
  });

  it(`a user holds at most ${API_KEYS_PER_USER} API keys in a workspace: one more is 409 until one is revoked, and other users are not affected`, async () => {
    const ws = await h.workspace();
    await fillKeys(h, ws, ws.admin, API_KEYS_PER_USER);
    const over = await as(h, ws).post('/api/api-keys', { name: 'one too many' });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ status: 409, code: 'conflict' });
    expect(over.body.detail).toContain(`at most ${API_KEYS_PER_USER} API keys`);
    const keys = (await as(h, ws).get('/api/api-keys')).body;
    expect(Object.keys(keys)).toHaveLength(API_KEYS_PER_USER);
    expect(Object.values(keys).map((key: any) => key.name)).not.toContain('one too many');

    const other = await h.user(ws);
    expect((await as(h, ws, other).post('/api/api-keys', { name: 'their own' })).status).toBe(200);

    expect((await as(h, ws).delete(`/api/api-keys/${Object.keys(keys)[1]}`)).status).toBe(200);
    expect((await as(h, ws).post('/api/api-keys', { name: 'after a revocation' })).status).toBe(200);
    expect((await as(h, ws).post('/api/api-keys', { name: 'one too many again' })).status).toBe(409);
  });

  it(`concurrent creations cannot pass the cap of ${API_KEYS_PER_USER} API keys together`, async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await fillKeys(h, ws, user, API_KEYS_PER_USER - 2);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => as(h, ws, user).post('/api/api-keys', { name: `racer ${i}` })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, ...Array(18).fill(409)]);
    expect(Object.keys((await as(h, ws, user).get('/api/api-keys')).body)).toHaveLength(API_KEYS_PER_USER);
  });
});
