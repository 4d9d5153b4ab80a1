import { expect, it } from 'vitest';
import { as, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { expectDocumented, tracking } from '../support/tracking.js';

const RATE = { currency: 'EUR', from: '2026-01-01T00:00:00Z', to: null, taxRate: 19, value: 95.5 };

async function setup(h: Harness, ws?: TestWorkspace) {
  ws ??= await h.workspace();
  const t = tracking(h, ws);
  const [lead, worker, stranger] = await Promise.all([h.user(ws), h.user(ws), h.user(ws)]);
  const project = await t.project();
  await t.member(project.id, lead, { role: 'Administrator' });
  const member = await t.member(project.id, worker);
  const url = `/api/projects/${project.id}/members/${member.id}/rates/revenue`;
  return { ws, t, lead, worker, stranger, project, member, url };
}

describeEachStore('Revenue rates', (h) => {
  it('documents its five operations in the OpenAPI document', async () => {
    await expectDocumented(h, [
      ['get', '/projects/{projectId}/members/{memberId}/rates/revenue', 'listRevenueRates', [403]],
      ['post', '/projects/{projectId}/members/{memberId}/rates/revenue', 'createRevenueRate', [403, 409, 422]],
      ['get', '/projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}', 'getRevenueRate', [403]],
      ['put', '/projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}', 'updateRevenueRate', [403, 409, 422]],
      ['delete', '/projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}', 'deleteRevenueRate', [403]],
    ]);
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(doc.components.schemas.RevenueRate).toBeDefined();
  });

  it('creates a rate with exactly the reference\'s fields, instants in UTC with milliseconds', async () => {
    const { t, project, member, url } = await setup(h);
    const res = await t.api().post(url, {
      currency: 'USD',
      from: '2026-01-01T01:00:00+01:00',
      to: '2026-07-01T00:00:00.5-02:00',
      taxRate: 0,
      value: 0,
      id: 'x',
      memberId: 'y',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      projectId: project.id,
      memberId: member.id,
      currency: 'USD',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-07-01T02:00:00.500Z',
      taxRate: 0,
      value: 0,
    });
    expect(await t.ok(t.api().get(`${url}/${res.body.id}`))).toEqual(res.body);
    const open = await t.ok(t.api().post(url, { ...RATE, from: '2026-08-01T00:00:00Z', to: undefined }));
    expect(open.to).toBeNull();
  });

  it('lists a member\'s rates by id in creation order', async () => {
    const { t, url } = await setup(h);
    const later = await t.ok(t.api().post(url, { ...RATE, from: '2026-06-01T00:00:00Z' }));
    const earlier = await t.ok(t.api().post(url, { ...RATE, from: '2026-01-01T00:00:00Z', to: '2026-06-01T00:00:00Z' }));
    const list = await t.ok(t.api().get(url));
    expect(Object.keys(list)).toEqual([later.id, earlier.id]);
    expect(list[later.id]).toEqual(later);
  });

  it('validates currency, taxRate, value and the period (422)', async () => {
    const { t, url } = await setup(h);
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'XYZ' }, '/body/currency'],
      [{ currency: 'eur' }, '/body/currency'],
      [{ currency: 'EURO' }, '/body/currency'],
      [{ taxRate: 100.5 }, '/body/taxRate'],
      [{ taxRate: -1 }, '/body/taxRate'],
      [{ value: -0.01 }, '/body/value'],
      [{ value: '5' }, '/body/value'],
      [{ from: '2026-01-01T00:00:00' }, '/body/from'],
      [{ to: '2026-01-01T00:00:00Z' }, '/body/to'],
      [{ to: '2025-12-31T00:00:00Z' }, '/body/to'],
      [{ from: undefined }, '/body/from'],
    ];
    for (const [change, pointer] of cases) {
      const res = await t.api().post(url, { ...RATE, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body.errors[0].pointer, JSON.stringify(change)).toBe(pointer);
    }
    expect((await t.api().post(url, { ...RATE, taxRate: 100 })).status).toBe(200);
    expect(Object.keys(await t.ok(t.api().get(url)))).toHaveLength(1);
  });

  it('answers 409 for overlapping periods of one member; touching periods and other members are fine', async () => {
    const { t, project, url, lead } = await setup(h);
    const first = await t.ok(t.api().post(url, { ...RATE, from: '2026-01-01T00:00:00Z', to: '2026-04-01T00:00:00Z' }));
    const inside = await t.api().post(url, { ...RATE, from: '2026-02-01T00:00:00Z', to: '2026-03-01T00:00:00Z' });
    expect(inside.status).toBe(409);
    expect(inside.body.code).toBe('conflict');
    expect((await t.api().post(url, { ...RATE, from: '2025-06-01T00:00:00Z', to: null })).status).toBe(409);
    expect((await t.api().post(url, { ...RATE, from: '2026-03-31T23:59:59.999Z' })).status).toBe(409);
    expect((await t.api().post(url, { ...RATE, from: '2025-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })).status).toBe(200);
    const next = await t.ok(t.api().post(url, { ...RATE, from: '2026-04-01T00:00:00Z' }));

    // Another member of the same project has periods of their own.
    const leadMember = Object.values<any>(await t.ok(t.api().get(`/api/projects/${project.id}/members`))).find((m) => m.userId === lead.userId);
    expect((await t.api().post(`/api/projects/${project.id}/members/${leadMember.id}/rates/revenue`, RATE)).status).toBe(200);

    // An update may keep or move its own period, but not onto another's.
    expect((await t.api().put(`${url}/${first.id}`, { ...RATE, from: '2026-01-15T00:00:00Z', to: '2026-04-01T00:00:00Z', value: 120 })).status).toBe(200);
    expect((await t.api().put(`${url}/${first.id}`, { ...RATE, from: '2026-01-15T00:00:00Z', to: '2026-04-02T00:00:00Z' })).status).toBe(409);
    expect((await t.api().put(`${url}/${next.id}`, { ...RATE, from: '2026-03-01T00:00:00Z' })).status).toBe(409);
    expect((await t.ok(t.api().get(`${url}/${first.id}`))).value).toBe(120);
  });

  it('lets only one of several concurrent overlapping rates commit (the member row is locked first)', async () => {
    const { t, url } = await setup(h);
    const results = await Promise.all(
      ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04'].map((day) => t.api().post(url, { ...RATE, from: `${day}T00:00:00Z` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(Object.keys(await t.ok(t.api().get(url)))).toHaveLength(1);
  });

  it('replaces a rate with PUT and deletes it; then it reads 404', async () => {
    const { t, url, project, member } = await setup(h);
    const rate = await t.ok(t.api().post(url, RATE));
    const replaced = await t.ok(
      t.api().put(`${url}/${rate.id}`, { currency: 'CHF', from: '2026-02-01T00:00:00Z', to: '2026-03-01T00:00:00Z', taxRate: 7.7, value: 80 }),
    );
    expect(replaced).toEqual({
      id: rate.id,
      projectId: project.id,
      memberId: member.id,
      currency: 'CHF',
      from: '2026-02-01T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
      taxRate: 7.7,
      value: 80,
    });
    expect(await t.ok(t.api().delete(`${url}/${rate.id}`))).toEqual({});
    expect((await t.api().get(`${url}/${rate.id}`)).status).toBe(404);
    expect((await t.api().put(`${url}/${rate.id}`, RATE)).status).toBe(404);
    expect((await t.api().delete(`${url}/${rate.id}`)).status).toBe(404);
  });

  it('is for admins and project admins only: a plain member gets 403, anyone else 404', async () => {
    const { t, url, lead, worker, stranger } = await setup(h);
    const byLead = await t.ok(t.api(lead).post(url, RATE));
    expect(await t.ok(t.api(lead).get(url))).toEqual({ [byLead.id]: byLead });
    expect((await t.api(lead).put(`${url}/${byLead.id}`, { ...RATE, value: 1 })).status).toBe(200);

    for (const [user, status] of [
      [worker, 403],
      [stranger, 404],
    ] as const) {
      expect((await t.api(user).get(url)).status).toBe(status);
      expect((await t.api(user).post(url, { ...RATE, from: '2027-01-01T00:00:00Z' })).status).toBe(status);
      expect((await t.api(user).get(`${url}/${byLead.id}`)).status).toBe(status);
      expect((await t.api(user).put(`${url}/${byLead.id}`, RATE)).status).toBe(status);
      expect((await t.api(user).delete(`${url}/${byLead.id}`)).status).toBe(status);
    }
    expect(await t.ok(t.api(lead).delete(`${url}/${byLead.id}`))).toEqual({});
  });

  it('answers 404 for a rate under another member, and for another workspace\'s ids whatever the role', async () => {
    const { t, url, project, ws } = await setup(h);
    const rate = await t.ok(t.api().post(url, RATE));
    const adminMember = Object.values<any>(await t.ok(t.api().get(`/api/projects/${project.id}/members`))).find(
      (m) => m.userId === ws.admin.userId,
    );
    const otherUrl = `/api/projects/${project.id}/members/${adminMember.id}/rates/revenue`;
    expect((await t.api().get(`${otherUrl}/${rate.id}`)).status).toBe(404);
    expect((await t.api().put(`${otherUrl}/${rate.id}`, RATE)).status).toBe(404);
    expect((await t.api().delete(`${otherUrl}/${rate.id}`)).status).toBe(404);

    const other = await h.workspace();
    const outsider = as(h, other);
    expect((await outsider.get(url)).status).toBe(404);
    expect((await outsider.post(url, { ...RATE, from: '2030-01-01T00:00:00Z' })).status).toBe(404);
    expect((await outsider.get(`${url}/${rate.id}`)).status).toBe(404);
    expect((await outsider.put(`${url}/${rate.id}`, RATE)).status).toBe(404);
    expect((await outsider.delete(`${url}/${rate.id}`)).status).toBe(404);
    expect(await t.ok(t.api().get(`${url}/${rate.id}`))).toEqual(rate);
  });
});
