import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';

/** What the fuzzer (test/security/fuzz.test.ts) found, pinned as plain tests of the rules it broke. */
describeEachStore('Malformed paths and unstorable text', (h) => {
  const raw = async (method: string, url: string, host: string, token: string, payload?: string) =>
    h.call(method, url, {
      host,
      token,
      ...(payload !== undefined ? { payload, headers: { 'content-type': 'application/json' } } : {}),
    });

  it('answers 404 not-found (problem+json) for a path id the router cannot decode', async () => {
    const ws = await h.workspace();
    for (const url of ['/api/projects/%ED%A0%80', '/api/projects/%E0%A4%A', '/api/users/%FF/rates/cost']) {
      const res = await raw('GET', url, ws.host, ws.admin.token);
      expect(res.status, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 404, code: 'not-found' });
    }
  });

  it('answers 404 not-found for an overlong path id, as for any unknown id', async () => {
    const ws = await h.workspace();
    const res = await raw('DELETE', `/api/projects/${'a'.repeat(5_000)}`, ws.host, ws.admin.token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, code: 'not-found' });
  });

  it('answers 404 for a path id holding NUL, which no record has', async () => {
    const ws = await h.workspace();
    const res = await raw('GET', '/api/projects/ab%00cd', ws.host, ws.admin.token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not-found' });
  });

  it('refuses a body string holding a lone surrogate with 422 at its pointer, and stores nothing', async () => {
    const ws = await h.workspace();
    const before = await as(h, ws).get('/api/projects');
    const res = await raw('POST', '/api/projects', ws.host, ws.admin.token, '{"name":"Broken \\ud800 name"}');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'validation',
      errors: [{ pointer: '/body/name', message: 'must be well-formed Unicode text without NUL characters' }],
    });
    expect((await as(h, ws).get('/api/projects')).body).toEqual(before.body);
  });

  it('refuses NUL in a body string, however deep, and in an object key, with 422', async () => {
    const ws = await h.workspace();
    const activity = await as(h, ws).post('/api/activities', {
      name: 'a\u0000b',
      startedAt: '2026-07-01T09:00:00Z',
      endedAt: '2026-07-01T10:00:00Z',
    });
    expect(activity.status).toBe(422);
    expect(activity.body.errors).toEqual([{ pointer: '/body/name', message: 'must be well-formed Unicode text without NUL characters' }]);
    const report = await as(h, ws).post('/api/reports', {
      name: 'R',
      period: 'custom',
      start: '2026-01-01T00:00:00Z',
      end: '2026-02-01T00:00:00Z',
      dimensions: ['project'],
      metrics: ['time'],
      overrides: [{ column: 'time', hint: 'h', label: 'x\u0000' }],
    });
    expect(report.status).toBe(422);
    expect(report.body.errors[0].pointer).toBe('/body/overrides/0/label');
    const organization = await as(h, ws).put('/api/organization', { holidays: { 'bad\u0000key': true } });
    expect(organization.status).toBe(422);
    expect(organization.body.errors[0].pointer).toBe('/body/holidays/bad\u0000key');
    expect((await as(h, ws).get('/api/activities')).body).toEqual({});
    expect((await as(h, ws).get('/api/reports')).body).toEqual({});
    expect((await as(h, ws).get('/api/organization')).body.holidays ?? {}).toEqual({});
  });

  it('keeps well-formed text exactly as sent: emoji (surrogate pairs), combining marks, right-to-left script', async () => {
    const ws = await h.workspace();
    const name = 'Zeit ⏱ 😀 e\u0301 שלום 𝄞';
    const created = await as(h, ws).post('/api/projects', { name });
    expect(created.status).toBe(200);
    expect(created.body.name).toBe(name);
    expect((await as(h, ws).get(`/api/projects/${created.body.id}`)).body.name).toBe(name);
  });

  it('refuses an activity spanning centuries with 422 at endedAt (longer than 31 days), never a 5xx, and lists nothing new', async () => {
    const ws = await h.workspace();
    for (const [startedAt, endedAt] of [
      ['1990-01-01T00:00:00Z', '3784-09-30T10:52:44Z'],
      ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z'],
    ]) {
      const res = await as(h, ws).post('/api/activities', { name: 'Long', startedAt, endedAt });
      expect(res.status, `${startedAt} → ${endedAt}`).toBe(422);
      expect(res.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual(['/body/endedAt']);
      const listed = await as(h, ws).get('/api/activities', undefined, { query: { from: '2026-07-04T00:00:00Z' } });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({});
    }
  });

  it('refuses a query value holding NUL with 422 on a route that reads its query string, and ignores it elsewhere', async () => {
    const ws = await h.workspace();
    const activities = await raw('GET', '/api/activities?projectId=a%00b', ws.host, ws.admin.token);
    expect(activities.status).toBe(422);
    expect(activities.body.errors).toEqual([{ pointer: '/query/projectId', message: 'must be well-formed Unicode text without NUL characters' }]);
    const locks = await raw('GET', '/api/timesheets/locks?userId=%00', ws.host, ws.admin.token);
    expect(locks.status).toBe(422);
    expect((await raw('GET', '/api/projects?unused=%00', ws.host, ws.admin.token)).status).toBe(200);
  });

  it('declares 422 for every operation with a query string (its values are parsed strictly)', async () => {
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    const withQuery = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item)
        .filter(([, op]) => (op.parameters ?? []).some((p: any) => p.in === 'query'))
        .map(([method, op]) => ({ where: `${method} ${path}`, declared: Object.keys(op.responses) })),
    );
    expect(withQuery.map((o) => o.where).sort()).toEqual([
      'get /activities',
      'get /auth/oidc/callback',
      'get /changes',
      'get /reports/{reportId}/entries',
      'get /reports/{reportId}/run',
      'get /timesheets/locks',
      'post /imports',
      'post /reports/entries',
      'post /reports/run',
    ]);
    for (const { where, declared } of withQuery) expect(declared, where).toContain('422');
  });
});
