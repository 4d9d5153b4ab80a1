import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';

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
});
