import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';

/** Every row of docs/rules.md §3, as a client meets it. */
describeEachStore('Problem responses', (h) => {
  const expectProblem = (res: { status: number; headers: Record<string, unknown>; body: any }, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `urn:timetrack:problem:${code}`, status, code });
    expect(typeof res.body.title).toBe('string');
    expect(typeof res.body.detail).toBe('string');
  };

  it('400 bad-request: a body that is not parseable JSON', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/organization', undefined, {
      payload: '{"notes": ',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400, 'bad-request');
  });

  it('401 unauthorized: no token, with WWW-Authenticate: Bearer', async () => {
    const ws = await h.workspace();
    const res = await h.call('GET', '/api/organization', { host: ws.host });
    expectProblem(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('403 forbidden: a User calling an administrators-only route', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).delete('/api/organization');
    expectProblem(res, 403, 'forbidden');
  });

  it('403 comes before validation: a User sending an invalid body still gets 403', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).put('/api/organization', { currency: 5 });
    expectProblem(res, 403, 'forbidden');
  });

  it('404 not-found: an unknown route under /api', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/no-such-thing');
    expectProblem(res, 404, 'not-found');
  });

  it('404 not-found: an unknown id (a malformed one too, not 422)', async () => {
    const ws = await h.workspace();
    expectProblem(await as(h, ws).delete('/api/api-keys/00000000-0000-7000-8000-000000000000'), 404, 'not-found');
    expectProblem(await as(h, ws).delete('/api/api-keys/%20not%20an%20id'), 404, 'not-found');
  });

  it('404 workspace-not-found: an unknown workspace host', async () => {
    const ws = await h.workspace();
    const res = await h.call('GET', '/api/organization', { host: `nobody.${h.config.baseDomain}`, token: ws.admin.token });
    expectProblem(res, 404, 'workspace-not-found');
  });

  it('405 method-not-allowed: a known path with another method, with Allow', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).patch('/api/organization', {});
    expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.allow).toBe('GET, HEAD, PUT, DELETE');
  });

  it('405 applies to parametrised paths too', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/api-keys/some-id');
    expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.allow).toBe('DELETE');
  });

  it('405 applies to QUERY like any other method, before its body is read: without a Content-Type or with a JSON body', async () => {
    const ws = await h.workspace();
    for (const options of [{}, { body: { q: 1 } }]) {
      const res = await h.call('QUERY', '/api/organization', { host: ws.host, token: ws.admin.token, ...options });
      expectProblem(res, 405, 'method-not-allowed');
      expect(res.headers.allow).toBe('GET, HEAD, PUT, DELETE');
      expect(res.body.detail).toBe('QUERY is not allowed here.');
    }
    const unknown = await h.call('QUERY', '/api/no-such-route', { host: ws.host, token: ws.admin.token });
    expectProblem(unknown, 404, 'not-found');
  });

  it('409 conflict: renaming to a domain another workspace holds', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    const res = await as(h, a).post('/api/organization/rename', { domain: b.domain });
    expectProblem(res, 409, 'conflict');
  });

  it('413 payload-too-large: a body over 1 MiB', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/organization', undefined, {
      payload: JSON.stringify({ notes: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 413, 'payload-too-large');
  });

  it('415 unsupported-media-type: a body that is not application/json', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/organization', undefined, {
      payload: 'notes=hello',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectProblem(res, 415, 'unsupported-media-type');
  });

  it('422 validation: a wrong type, with a JSON pointer to the field', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/organization', { rounding: { interval: '15' } });
    expectProblem(res, 422, 'validation');
    expect(res.body.errors).toEqual([{ pointer: '/body/rounding/interval', message: 'must be integer' }]);
  });

  it('422 validation: a missing required field points at it', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/organization/rename', {});
    expectProblem(res, 422, 'validation');
    expect(res.body.errors).toEqual([{ pointer: '/body/domain', message: "must have required property 'domain'" }]);
  });

  it('422 validation: a broken rule (unknown time zone) changes nothing', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/organization', { timeZone: 'Mars/Olympus', notes: 'kept?' });
    expectProblem(res, 422, 'validation');
    expect(res.body.errors).toEqual([{ pointer: '/body/timeZone', message: expect.any(String) }]);
    expect((await as(h, ws).get('/api/organization')).body.notes).toBeUndefined();
  });

  it('422 validation: types are never coerced ("true" for a boolean)', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/organization', { rounding: { enabled: 'true' } });
    expectProblem(res, 422, 'validation');
  });

  it('500 internal: an unexpected failure says only that, and the log has it with the request id', async () => {
    const ws = await h.workspace();
    await h.app.db.schema.alterTable('organizations').renameTo('organizations_away').execute();
    try {
      const res = await as(h, ws).get('/api/organization', undefined, { headers: { 'x-request-id': 'req-500-test' } });
      expectProblem(res, 500, 'internal');
      expect(res.body.detail).not.toMatch(/organizations|select|sql|at /i);
      expect(res.headers['x-request-id']).toBe('req-500-test');
      const logged = h.logs.map((line) => JSON.parse(line)).find((entry) => entry.reqId === 'req-500-test' && entry.level === 50);
      expect(logged?.err?.message).toMatch(/organizations/);
    } finally {
      await h.app.db.schema.alterTable('organizations_away').renameTo('organizations').execute();
    }
  });

  it('a detail about one field is a sentence whose subject is the field\'s pointer, from the schema or a rule', async () => {
    const ws = await h.workspace();
    const schema = await as(h, ws).put('/api/organization', { rounding: { interval: '15' } });
    expect(schema.body.detail).toBe('/body/rounding/interval must be integer.');
    const rule = await as(h, ws).post('/api/reports', {
      name: 'Monthly hours',
      period: 'custom',
      start: '2026-02-01T00:00:00Z',
      end: '2026-01-01T00:00:00Z',
      dimensions: ['project'],
      metrics: ['time'],
    });
    expect(rule.body.detail).toBe('/body/end must be after start.');
    const project = (await as(h, ws).post('/api/projects', { name: 'Sentences' })).body;
    const member = await as(h, ws).post(`/api/projects/${project.id}/members`, { userId: 'nobody' });
    expect(member.body.detail).toBe('/body/userId must name an unarchived user of this workspace.');
    const period = await as(h, ws).get('/api/activities', undefined, { query: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } });
    expect(period.body).toMatchObject({ detail: '/query/from must not be after to.', errors: [{ pointer: '/query/from', message: 'must not be after to' }] });
  });

  it('every response carries x-request-id, problems included', async () => {
    const ws = await h.workspace();
    const ok = await as(h, ws).get('/api/organization');
    const problem = await h.call('GET', '/api/organization', { host: ws.host });
    expect(ok.headers['x-request-id']).toMatch(/.+/);
    expect(problem.headers['x-request-id']).toMatch(/.+/);
    expect(ok.headers['x-request-id']).not.toBe(problem.headers['x-request-id']);
  });
});
