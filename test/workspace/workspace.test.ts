import { expect, it } from 'vitest';
import { as, describeEachStore, type TestWorkspace } from '../support/harness.js';
import { createWorkspace, releaseRetiredDomain } from '../support/src.js';

describeEachStore('Workspace routes', (h) => {
  it('GET /organization answers the organization of the host with every default', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/organization');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: ws.organizationId,
      name: `Workspace ${ws.domain}`,
      currency: 'USD',
      coreHours: { start: '09:00', end: '17:00' },
      lockingTimesheets: { enabled: false, timeZone: null, unlockDuration: 24, week: null, year: null },
      onboarding: {
        assignMembers: { done: false, viewed: false },
        inviteMembers: { done: false, viewed: false },
        organization: { done: false, viewed: false },
        preferences: { done: false, viewed: false },
        projects: { done: false, viewed: false },
      },
      plan: 'free',
      rounding: { enabled: false, interval: 15, mode: 'NEAREST' },
      timeZone: 'UTC',
    });
  });
});

describeEachStore('PUT /organization', (h) => {
  it('changes the given fields, merges nested objects and answers the organization', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/organization', {
      currency: 'EUR',
      notes: 'Berlin office',
      timeZone: 'Europe/Berlin',
      coreHours: { start: '08:30' },
      rounding: { enabled: true, mode: 'UP' },
      lockingTimesheets: { enabled: true, unlockDuration: 48 },
      holidays: { country: 'DE', excluded: ['2026-12-24'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      currency: 'EUR',
      notes: 'Berlin office',
      timeZone: 'Europe/Berlin',
      coreHours: { start: '08:30', end: '17:00' },
      rounding: { enabled: true, interval: 15, mode: 'UP' },
      lockingTimesheets: { enabled: true, unlockDuration: 48, timeZone: null, week: null, year: null },
      holidays: { country: 'DE', excluded: ['2026-12-24'] },
    });
    expect((await as(h, ws).get('/api/organization')).body).toEqual(res.body);
  });

  it('lockingTimesheets accepts only enabled and unlockDuration: year, week and timeZone are the server\'s', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/organization', {
      lockingTimesheets: { enabled: true, year: 2020, week: 5, timeZone: 'Asia/Tokyo' },
    });
    expect(res.status).toBe(200);
    expect(res.body.lockingTimesheets).toEqual({ enabled: true, timeZone: null, unlockDuration: 24, week: null, year: null });
  });

  it('server-owned and unknown fields are ignored, never stored', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/organization', { id: 'mine', plan: 'enterprise', favouriteColour: 'red' });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(ws.organizationId);
    expect(res.body.plan).toBe('free');
    expect(res.body).not.toHaveProperty('favouriteColour');
  });

  it.each([
    [{ currency: 'EURO' }, '/body/currency'],
    [{ currency: 'XYZ' }, '/body/currency'],
    [{ currency: 'eur' }, '/body/currency'],
    [{ timeZone: 'Europe/Nowhere' }, '/body/timeZone'],
    [{ coreHours: { start: '9:00' } }, '/body/coreHours/start'],
    [{ coreHours: { end: '24:00' } }, '/body/coreHours/end'],
    [{ coreHours: { start: '18:00' } }, '/body/coreHours/start'],
    [{ rounding: { mode: 'SIDEWAYS' } }, '/body/rounding/mode'],
    [{ rounding: { interval: 0 } }, '/body/rounding/interval'],
    [{ lockingTimesheets: { unlockDuration: 1.5 } }, '/body/lockingTimesheets/unlockDuration'],
    [{ notes: 'n'.repeat(10_001) }, '/body/notes'],
    [{ name: '  ' }, '/body/name'],
  ])('rejects %j with 422 at %s and changes nothing', async (body, pointer) => {
    const ws = await h.workspace();
    const before = (await as(h, ws).get('/api/organization')).body;
    const res = await as(h, ws).put('/api/organization', body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation');
    expect(res.body.errors[0].pointer).toBe(pointer);
    expect((await as(h, ws).get('/api/organization')).body).toEqual(before);
  });

  it('a User cannot change the organization (403) but can read it', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    expect((await as(h, ws, user).put('/api/organization', { notes: 'x' })).status).toBe(403);
    expect((await as(h, ws, user).get('/api/organization')).status).toBe(200);
  });
});

describeEachStore('GET /organizations', (h) => {
  it('lists the workspaces of the caller\'s account as an array of {active, domain, name}', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/organizations');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ active: true, domain: ws.domain, name: `Workspace ${ws.domain}` }]);
  });

  it('leaves out workspaces where the account\'s user is archived', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    const email = `both-${a.domain}@example.com`;
    const inA = await h.user(a, { email });
    await h.user(b, { email, archived: true });
    const res = await as(h, a, inA).get('/api/organizations');
    expect(res.body).toEqual([{ active: true, domain: a.domain, name: `Workspace ${a.domain}` }]);
  });
});

describeEachStore('DELETE /organization', (h) => {
  it('removes the workspace and all its data, answers {domain, redirectUrl}, and the host then 404s', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws).delete('/api/organization');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ domain: ws.domain, redirectUrl: `${h.config.publicUrl}/` });
    const after = await as(h, ws, user).get('/api/auth');
    expect(after.status).toBe(404);
    expect(after.body.code).toBe('workspace-not-found');
    for (const table of ['users', 'api_keys', 'organization_domains'] as const) {
      const rows = await h.app.db.selectFrom(table).selectAll().where('organization_id', '=', ws.organizationId).execute();
      expect(rows).toEqual([]);
    }
  });

  it('is for administrators only (403) and leaves other workspaces alone', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const user = await h.user(ws);
    expect((await as(h, ws, user).delete('/api/organization')).status).toBe(403);
    await as(h, ws).delete('/api/organization');
    expect((await as(h, other).get('/api/organization')).status).toBe(200);
  });
});

describeEachStore('Domains of a deleted workspace', (h) => {
  const DAY = 86_400_000;
  const claim = (ws: TestWorkspace, domain: string) => as(h, ws).post('/api/organization/rename', { domain });

  it('stay reserved for 90 days after the deletion, current and former: another workspace gets 409, the host 404', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const former = ws.domain;
    const current = `${ws.domain}-now`;
    expect((await claim(ws, current)).status).toBe(200);
    const moved = { ...ws, domain: current, host: `${current}.${h.config.baseDomain}` };
    expect((await as(h, moved).delete('/api/organization')).status).toBe(200);
    for (const domain of [former, current]) {
      const taken = await claim(other, domain);
      expect([taken.status, taken.body.code], domain).toEqual([409, 'conflict']);
      expect(taken.body.detail).toMatch(/deleted workspace and is reserved until/);
      await expect(createWorkspace(h.app.db, { domain, name: 'Squatter', adminEmail: `s-${domain}@example.com` })).rejects.toMatchObject({ status: 409 });
      expect((await as(h, { ...other, domain, host: `${domain}.${h.config.baseDomain}` }).get('/api/auth')).status).toBe(404);
    }
    const rows = await h.app.db.selectFrom('retired_domains').selectAll().where('domain', 'in', [former, current]).orderBy('domain').execute();
    expect(rows.map((row) => row.domain)).toEqual([former, current].sort());
    for (const row of rows) expect(Date.parse(row.reserved_until) - Date.parse(row.retired_at)).toBe(90 * DAY);
    // Once the reservation has ended, the domain is free again.
    await h.app.db.updateTable('retired_domains').set({ reserved_until: new Date(Date.now() - 1000).toISOString() }).where('domain', '=', former).execute();
    expect((await claim(other, former)).status).toBe(200);
  });

  it('are released on purpose by releaseRetiredDomain (timetrack domain release), and only a deleted workspace\'s', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    expect((await as(h, ws).delete('/api/organization')).status).toBe(200);
    await expect(releaseRetiredDomain(h.app.db, other.domain)).rejects.toMatchObject({ status: 409 });
    await expect(releaseRetiredDomain(h.app.db, `${ws.domain}-never`)).rejects.toMatchObject({ status: 404 });
    expect(await releaseRetiredDomain(h.app.db, ` ${ws.domain.toUpperCase()} `)).toEqual({ domain: ws.domain, released: true });
    expect((await claim(other, ws.domain)).status).toBe(200);
  });

  it('documents the reservation in the DELETE /organization description', async () => {
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(doc.paths['/organization'].delete.description).toMatch(/reserved for 90 days/);
  });
});

describeEachStore('POST /organization/rename', (h) => {
  it('moves the workspace at once: the new host answers, the old one is 404', async () => {
    const ws = await h.workspace();
    const domain = `${ws.domain}-new`;
    const res = await as(h, ws).post('/api/organization/rename', { domain });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ domain });
    const moved = { ...ws, domain, host: `${domain}.${h.config.baseDomain}` };
    expect((await as(h, moved).get('/api/auth')).body.domain).toBe(domain);
    const old = await as(h, ws).get('/api/auth');
    expect(old.status).toBe(404);
    expect(old.body.code).toBe('workspace-not-found');
  });

  it('keeps former domains reserved to the workspace: others get 409, the workspace may move back', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const domain = `${ws.domain}-moved`;
    await as(h, ws).post('/api/organization/rename', { domain });
    const moved = { ...ws, domain, host: `${domain}.${h.config.baseDomain}` };
    const taken = await as(h, other).post('/api/organization/rename', { domain: ws.domain });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('conflict');
    expect((await as(h, moved).post('/api/organization/rename', { domain: ws.domain })).status).toBe(200);
    expect((await as(h, ws).get('/api/auth')).status).toBe(200);
  });

  it.each(['ab', 'a'.repeat(64), '-abc', 'abc-', 'ab_c', 'ABC', 'a.bc', 'www', 'api', 'admin', 'mail', 'static', 'docs', 'app'])(
    'rejects the invalid or reserved domain %s with 422',
    async (domain) => {
      const ws = await h.workspace();
      const res = await as(h, ws).post('/api/organization/rename', { domain });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/body/domain');
    },
  );

  it('refuses a punycode (xn--) domain with 422 and a clear message, on rename and on creation', async () => {
    const ws = await h.workspace();
    for (const domain of ['xn--pple-43d', 'xn--80ak6aa92e']) {
      const res = await as(h, ws).post('/api/organization/rename', { domain });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ pointer: '/body/domain', message: 'must not start with "xn--" (internationalized, punycode domains are not accepted)' }]);
      await expect(createWorkspace(h.app.db, { domain, name: 'Look-alike', adminEmail: `l-${domain}@example.com` })).rejects.toMatchObject({
        status: 422,
        errors: [{ pointer: '/domain', message: expect.stringContaining('xn--') }],
      });
    }
    expect((await as(h, ws).get('/api/auth')).body.domain).toBe(ws.domain);
    // "xn" elsewhere in a label is an ordinary name.
    expect((await as(h, ws).post('/api/organization/rename', { domain: `${ws.domain}-xn--a` })).status).toBe(200);
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(doc.paths['/organization/rename'].post.responses['422'].description).toMatch(/xn--/);
  });

  it('two workspaces renaming to the same free domain at once: exactly one wins, the other gets 409', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    const domain = `race-${a.domain}`;
    const results = await Promise.all([
      as(h, a).post('/api/organization/rename', { domain }),
      as(h, b).post('/api/organization/rename', { domain }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('is for administrators only', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    expect((await as(h, ws, user).post('/api/organization/rename', { domain: 'whatever-new' })).status).toBe(403);
  });
});
