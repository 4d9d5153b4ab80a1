import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok } from '../support/harness.js';
import { entriesPagePlanOf } from '../support/plans.js';
import { report, world } from './entries-world.js';

/*
 * The detailed report (docs/rules.md §6 Detailed report): every entry of a report with its
 * user, project, rounded and raw duration, and the money the caller may read, in pages.
 */

describeEachStore('Detailed report', (h) => {
  it('lists every entry of the period with user, project, rounded and raw duration, rates and money, in startedAt order', async () => {
    const w = await world(h);
    const saved = await make.report(h, w.ws, report(['time', 'revenue', 'cost']));
    const res = await as(h, w.ws).get(`/api/reports/${saved.id}/entries?timeZone=UTC`);
    expect(res.status).toBe(200);
    expect(res.headers.link).toBeUndefined();
    expect(res.body).toMatchObject({
      period: 'custom',
      start: '2026-07-01T00:00:00.000Z',
      end: '2026-08-01T00:00:00.000Z',
      timeZone: 'UTC',
      rounding: { enabled: true, interval: 15, mode: 'NEAREST' },
      ignoredFilters: [],
    });
    const entries = res.body.entries;
    expect(entries.map((e: any) => e.name)).toEqual(['=SUM(A1:A9)', 'a, "quoted"\nline', '+cmd', '@at', '-minus']);
    expect(entries[0]).toEqual({
      id: expect.any(String),
      name: '=SUM(A1:A9)',
      startedAt: '2026-07-01T09:00:00.000Z',
      endedAt: '2026-07-01T10:30:00.000Z',
      billable: true,
      user: { id: w.alice.userId, name: 'Alice' },
      project: { id: w.alpha, name: 'Alpha' },
      client: null,
      task: null,
      tags: [],
      duration: 5400,
      rawDuration: 5400,
      revenueRate: { currency: 'EUR', value: 100 },
      revenue: { EUR: 150 },
      costRate: { currency: 'EUR', value: 40 },
      cost: { EUR: 60 },
    });
    // 7 min 30 s rounds to 15 minutes (NEAREST, half up) before any money is computed.
    expect(entries[1]).toMatchObject({ duration: 900, rawDuration: 450, revenue: { EUR: 20 }, cost: { EUR: 10 } });
    // No cost rate: the cost is empty, never a silent zero.
    expect(entries[2]).toMatchObject({ revenueRate: { currency: 'USD', value: 50 }, revenue: { USD: 100 }, costRate: null, cost: {} });
    expect(entries[4]).toMatchObject({ project: null, billable: false, revenueRate: null, revenue: {}, costRate: null, cost: {} });
  });

  it('leaves out what the summary leaves out: archived projects, users and memberships unless shown, and members not selected', async () => {
    const w = await world(h);
    const alphaMembers = Object.entries(await ok(as(h, w.ws).get(`/api/projects/${w.alpha}/members`))) as Array<[string, { userId: string }]>;
    const memberOnAlpha = (userId: string) => alphaMembers.find(([, member]) => member.userId === userId)![0];
    await ok(as(h, w.ws).put(`/api/projects/${w.beta}`, { archived: true }));
    await ok(as(h, w.ws).put(`/api/projects/${w.alpha}/members/${memberOnAlpha(w.bob.userId)}`, { archived: true }));
    const names = async (extra: Record<string, unknown>) => {
      const definition = report(['time'], extra);
      const detailed = await ok(as(h, w.ws).post('/api/reports/entries?timeZone=UTC', definition));
      const summary = await ok(as(h, w.ws).post('/api/reports/run?timeZone=UTC', definition));
      expect(detailed.entries).toHaveLength(summary.totals.entries);
      return detailed.entries.map((entry: { name: string }) => entry.name);
    };
    // Alice on Alpha, Alice on Beta, Bob on Alpha, Bob on Beta, the admin without a project.
    const [aliceAlpha, aliceBeta, bobAlpha, bobBeta, none] = ['=SUM(A1:A9)', 'a, "quoted"\nline', '+cmd', '@at', '-minus'];
    expect(await names({})).toEqual([aliceAlpha, none]);
    expect(await names({ showArchivedProjects: true })).toEqual([aliceAlpha, aliceBeta, bobBeta, none]);
    expect(await names({ showArchivedMembers: true })).toEqual([aliceAlpha, bobAlpha, none]);
    expect(await names({ showArchivedProjects: true, showArchivedMembers: true })).toEqual([aliceAlpha, aliceBeta, bobAlpha, bobBeta, none]);
    expect(await names({ showArchivedMembers: true, selectedProjectMembers: [memberOnAlpha(w.alice.userId), memberOnAlpha(w.bob.userId)] })).toEqual([aliceAlpha, bobAlpha]);
    expect(await names({ selectedProjectMembers: [] })).toEqual([]);
    await ok(as(h, w.ws).put(`/api/users/${w.bob.userId}`, { archived: true }));
    expect(await names({ showArchivedProjects: true })).toEqual([aliceAlpha, aliceBeta, none]);
  });

  it('leaves out the entries of archived projects also when the workspace has more of them than a statement lists', async () => {
    const w = await world(h);
    const archived = [];
    for (let i = 0; i < 240; i += 30) {
      archived.push(...(await Promise.all(Array.from({ length: 30 }, (_, j) => make.project(h, w.ws, { name: `Old ${i + j}`, archived: true })))));
    }
    const last = await make.project(h, w.ws, { name: 'Old last' });
    await make.activity(h, w.ws, { project: last, name: 'On an archived project', startedAt: '2026-07-06T09:00:00Z', endedAt: '2026-07-06T10:00:00Z' });
    await ok(as(h, w.ws).put(`/api/projects/${last.id}`, { archived: true }));
    const names = async (extra: Record<string, unknown>) =>
      (await ok(as(h, w.ws).post('/api/reports/entries?timeZone=UTC', report(['time'], extra)))).entries.map((entry: { name: string }) => entry.name);
    expect(await names({})).toEqual(['=SUM(A1:A9)', 'a, "quoted"\nline', '+cmd', '@at', '-minus']);
    expect(await names({ showArchivedProjects: true })).toEqual(['=SUM(A1:A9)', 'a, "quoted"\nline', '+cmd', '@at', '-minus', 'On an archived project']);
  });

  it('reads a page of entries after a key in the order of the workspace\'s index, never sorting the rest of the period (migration 0014)', async () => {
    const w = await world(h);
    // Entries sharing a start: their order is (startedAt, id), which only an index ending with id gives.
    for (let i = 0; i < 3; i++) await make.activity(h, w.ws, { name: `Same start ${i}`, startedAt: '2026-07-09T09:00:00Z', endedAt: '2026-07-09T10:00:00Z' });
    const plan = await entriesPagePlanOf(h, w.ws.organizationId, { start: '2026-07-01T00:00:00.000Z', end: '2026-08-01T00:00:00.000Z' }, { startedAt: '2026-07-09T09:00:00.000Z', id: '0' });
    expect(plan).toContain('activities_organization_started');
    expect(plan).not.toMatch(/Sort|TEMP B-TREE/);
  });

  it('answers in pages: limit entries, a Link to the next page with an opaque cursor, none after the last', async () => {
    const w = await world(h);
    const saved = await make.report(h, w.ws, report(['time']));
    const seen: string[] = [];
    let url: string | undefined = `/api/reports/${saved.id}/entries?limit=2&timeZone=UTC`;
    const sizes: number[] = [];
    while (url !== undefined) {
      const res = await as(h, w.ws).get(url);
      expect(res.status).toBe(200);
      sizes.push(res.body.entries.length);
      seen.push(...res.body.entries.map((e: any) => e.name));
      const link = res.headers.link as string | undefined;
      if (link !== undefined) expect(link).toMatch(/^<\/api\/reports\/[^>]+\/entries\?limit=2&timeZone=UTC&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
      url = link === undefined ? undefined : /^<([^>]+)>/.exec(link)![1];
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(['=SUM(A1:A9)', 'a, "quoted"\nline', '+cmd', '@at', '-minus']);
  });

  it('a cursor no page gave is 422 at /query/cursor; limit or cursor with a file format is 422', async () => {
    const w = await world(h);
    const saved = await make.report(h, w.ws, report(['time']));
    const bad = await as(h, w.ws).get(`/api/reports/${saved.id}/entries?cursor=bm90LWEtY3Vyc29y`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].pointer).toBe('/query/cursor');
    const csvPage = await as(h, w.ws).get(`/api/reports/${saved.id}/entries?format=csv&limit=2`);
    expect(csvPage.status).toBe(422);
    expect(csvPage.body.errors[0]).toEqual({ pointer: '/query/limit', message: 'applies to format json only: a file holds every entry' });
  });

  it('a project admin sees their own entries and those of projects they administer, with revenue only on those projects', async () => {
    const w = await world(h);
    const mine = await make.report(h, w.ws, { owner: w.bob, ...report(['time', 'revenue']) });
    const res = await as(h, w.ws, w.bob).get(`/api/reports/${mine.id}/entries`);
    expect(res.status).toBe(200);
    const entries = res.body.entries;
    expect(entries.map((e: any) => e.name)).toEqual(['=SUM(A1:A9)', '+cmd', '@at']);
    expect(entries[0]).toMatchObject({ revenueRate: { currency: 'EUR', value: 100 }, revenue: { EUR: 150 } });
    expect(entries[1]).toMatchObject({ revenue: { USD: 100 } });
    // Beta is not Bob's to administer: his own entry there carries no revenue; nobody's carries cost.
    expect(entries[2]).not.toHaveProperty('revenue');
    expect(entries[2]).not.toHaveProperty('revenueRate');
    for (const entry of entries) expect(entry).not.toHaveProperty('cost');
  });

  it('a User sees their own entries without money; asking for cost is 403 naming the metric', async () => {
    const w = await world(h);
    const plain = await make.report(h, w.ws, { owner: w.alice, ...report(['time']) });
    const res = await as(h, w.ws, w.alice).get(`/api/reports/${plain.id}/entries`);
    expect(res.status).toBe(200);
    expect(res.body.entries.map((e: any) => [e.name, Object.keys(e).includes('revenue') || Object.keys(e).includes('cost')])).toEqual([
      ['=SUM(A1:A9)', false],
      ['a, "quoted"\nline', false],
    ]);
    const costly = await make.report(h, w.ws, { owner: w.alice, ...report(['time', 'cost']) });
    const denied = await as(h, w.ws, w.alice).get(`/api/reports/${costly.id}/entries`);
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toMatch(/cost/);
  });

  it('another user\'s saved report is 404, administrators included', async () => {
    const w = await world(h);
    const alices = await make.report(h, w.ws, { owner: w.alice, ...report(['time']) });
    expect((await as(h, w.ws).get(`/api/reports/${alices.id}/entries`)).status).toBe(404);
    expect((await as(h, w.ws, w.bob).get(`/api/reports/${alices.id}/entries`)).status).toBe(404);
  });
});
