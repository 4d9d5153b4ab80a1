import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore } from '../support/harness.js';
import { entry, JULY, membership, namedUser, report, runReport } from './run-world.js';

describeEachStore('Running a report', (h) => {
  /** Ada works on Apollo (billable, 100 EUR/h revenue) and on no project; her cost is 40 EUR/h. */
  async function apolloWorld() {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    const apollo = await make.project(h, ws, { name: 'Apollo', billable: true });
    const member = await membership(h, ws, apollo, ada);
    await make.revenueRate(h, ws, { project: apollo, member, value: 100 });
    await make.costRate(h, ws, { user: ada, value: 40 });
    await entry(h, ws, { owner: ada, project: apollo, startedAt: '2026-07-04T09:00:00Z', seconds: 3600 });
    await entry(h, ws, { owner: ada, project: null, startedAt: '2026-07-06T09:00:00Z', seconds: 1800, billable: false });
    return { ws, ada, apollo, member };
  }

  it('answers every metric by project: time, billable time, revenue, cost and profit per currency, with the documented shape', async () => {
    const { ws, apollo } = await apolloWorld();
    const res = await runReport(h, ws, { dimensions: ['project'], metrics: ['time', 'billableTime', 'revenue', 'cost', 'profit'] });
    expect(res.status).toBe(200);
    const money = { unpricedBillableTime: 0, uncostedTime: 0 };
    expect(res.body).toEqual({
      period: 'custom',
      start: '2026-07-01T00:00:00.000Z',
      end: '2026-08-01T00:00:00.000Z',
      timeZone: 'UTC',
      dimensions: ['project'],
      metrics: ['time', 'billableTime', 'revenue', 'cost', 'profit'],
      rounding: { enabled: false, interval: 15, mode: 'NEAREST' },
      totals: { entries: 2, time: 5400, billableTime: 3600, revenue: { EUR: 100 }, cost: { EUR: 60 }, profit: { EUR: 40 }, ...money },
      rows: [
        { key: apollo.id, label: 'Apollo', entries: 1, time: 3600, billableTime: 3600, revenue: { EUR: 100 }, cost: { EUR: 40 }, profit: { EUR: 60 }, ...money },
        { key: null, label: 'No project', entries: 1, time: 1800, billableTime: 0, revenue: {}, cost: { EUR: 20 }, profit: { EUR: -20 }, ...money },
      ],
      ignoredFilters: [],
    });
  });

  it('groups by user, member, day, week and month with their keys and labels', async () => {
    const { ws, ada, member } = await apolloWorld();
    const rows = async (dimension: string) => (await report(h, ws, { dimensions: [dimension], metrics: ['time'] })).rows;
    expect(await rows('user')).toEqual([{ key: ada.userId, label: 'Ada', entries: 2, time: 5400 }]);
    expect(await rows('member')).toEqual([
      { key: member.id, label: 'Ada', entries: 1, time: 3600 },
      { key: null, label: 'No member', entries: 1, time: 1800 },
    ]);
    expect(await rows('day')).toEqual([
      { key: '2026-07-04', label: 'Sat, 4 Jul 2026', entries: 1, time: 3600 },
      { key: '2026-07-06', label: 'Mon, 6 Jul 2026', entries: 1, time: 1800 },
    ]);
    expect(await rows('week')).toEqual([
      { key: '2026-W27', label: '2026-W27 (29 Jun – 5 Jul 2026)', entries: 1, time: 3600 },
      { key: '2026-W28', label: '2026-W28 (6 Jul – 12 Jul 2026)', entries: 1, time: 1800 },
    ]);
    expect(await rows('month')).toEqual([{ key: '2026-07', label: 'July 2026', entries: 2, time: 5400 }]);
  });

  it('nests three dimensions as a tree: rows[].rows for the next dimension, absent at the leaf, parents summing their rows', async () => {
    const { ws, ada, apollo } = await apolloWorld();
    const bob = await namedUser(h, ws, 'bob');
    await membership(h, ws, apollo, bob);
    await entry(h, ws, { owner: bob, project: apollo, startedAt: '2026-07-04T12:00:00Z', seconds: 600 });
    const body = await report(h, ws, { dimensions: ['project', 'user', 'day'], metrics: ['time'] });
    expect(body.totals).toEqual({ entries: 3, time: 6000 });
    expect(body.rows).toEqual([
      {
        key: apollo.id,
        label: 'Apollo',
        entries: 2,
        time: 4200,
        rows: [
          { key: ada.userId, label: 'Ada', entries: 1, time: 3600, rows: [{ key: '2026-07-04', label: 'Sat, 4 Jul 2026', entries: 1, time: 3600 }] },
          { key: bob.userId, label: 'bob', entries: 1, time: 600, rows: [{ key: '2026-07-04', label: 'Sat, 4 Jul 2026', entries: 1, time: 600 }] },
        ],
      },
      {
        key: null,
        label: 'No project',
        entries: 1,
        time: 1800,
        rows: [{ key: ada.userId, label: 'Ada', entries: 1, time: 1800, rows: [{ key: '2026-07-06', label: 'Mon, 6 Jul 2026', entries: 1, time: 1800 }] }],
      },
    ]);
  });

  it('counts closed activities whose startedAt is in [start, end), each whole; running timers are left out', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    await entry(h, ws, { owner: ada, startedAt: '2026-06-30T23:00:00Z', seconds: 7200 });
    await entry(h, ws, { owner: ada, startedAt: '2026-07-31T23:00:00Z', seconds: 7200 });
    await entry(h, ws, { owner: ada, startedAt: '2026-08-01T00:00:00Z', seconds: 60 });
    await make.timer(h, ws, { owner: ada, startedAt: '2026-07-10T09:00:00Z' });
    const body = await report(h, ws, { dimensions: ['user'], metrics: ['time'] });
    expect(body.totals).toEqual({ entries: 1, time: 7200 });
  });

  it('filters by billable, users, projects (null for no project) and name; objects it does not understand are listed in ignoredFilters', async () => {
    const { ws, ada, apollo } = await apolloWorld();
    const bob = await namedUser(h, ws, 'Bob');
    await membership(h, ws, apollo, bob);
    await entry(h, ws, { owner: bob, project: apollo, startedAt: '2026-07-05T09:00:00Z', seconds: 60, name: 'Design REVIEW', billable: false });
    const totals = async (filters: unknown[]) => (await report(h, ws, { dimensions: ['user'], metrics: ['time'], filters })).totals;
    expect(await totals([{ billable: true }])).toEqual({ entries: 1, time: 3600 });
    expect(await totals([{ billable: false }])).toEqual({ entries: 2, time: 1860 });
    expect(await totals([{ userIds: [bob.userId] }])).toEqual({ entries: 1, time: 60 });
    expect(await totals([{ projectIds: [null] }])).toEqual({ entries: 1, time: 1800 });
    expect(await totals([{ projectIds: [apollo.id] }])).toEqual({ entries: 2, time: 3660 });
    expect(await totals([{ projectIds: [apollo.id, null] }, { userIds: [ada.userId] }])).toEqual({ entries: 2, time: 5400 });
    expect(await totals([{ nameContains: 'review' }])).toEqual({ entries: 1, time: 60 });
    const ignored = [{ field: 'billable', equals: true }, { billable: 'yes' }, { userIds: [ada.userId], tags: ['x'] }];
    const body = await report(h, ws, { dimensions: ['user'], metrics: ['time'], filters: [...ignored, { billable: false }] });
    expect(body.ignoredFilters).toEqual(ignored);
    expect(body.totals).toEqual({ entries: 2, time: 1860 });
  });

  it('selectedProjects, selectedProjectMembers, showArchivedProjects and showArchivedMembers filter as their names say', async () => {
    const { ws, ada, apollo, member } = await apolloWorld();
    const bob = await namedUser(h, ws, 'Bob');
    const bobOnApollo = await membership(h, ws, apollo, bob);
    const old = await make.project(h, ws, { name: 'Old' });
    await membership(h, ws, old, ada);
    await entry(h, ws, { owner: bob, project: apollo, startedAt: '2026-07-05T09:00:00Z', seconds: 60 });
    await entry(h, ws, { owner: ada, project: old, startedAt: '2026-07-05T10:00:00Z', seconds: 120 });
    await as(h, ws).put(`/api/projects/${old.id}`, { archived: true });
    await as(h, ws).put(`/api/projects/${apollo.id}/members/${bobOnApollo.id}`, { archived: true });
    const totals = async (body: Record<string, unknown>) => (await report(h, ws, { dimensions: ['project'], metrics: ['time'], ...body })).totals;
    expect(await totals({})).toEqual({ entries: 2, time: 5400 });
    expect(await totals({ showArchivedProjects: true })).toEqual({ entries: 3, time: 5520 });
    expect(await totals({ showArchivedMembers: true })).toEqual({ entries: 3, time: 5460 });
    expect(await totals({ selectedProjects: [apollo.id], showArchivedMembers: true })).toEqual({ entries: 2, time: 3660 });
    expect(await totals({ selectedProjectMembers: [member.id] })).toEqual({ entries: 1, time: 3600 });
  });

  it('a User sees in a report exactly the activities GET /activities shows them', async () => {
    const { ws, ada, apollo } = await apolloWorld();
    const lead = await namedUser(h, ws, 'Lead');
    await membership(h, ws, apollo, lead, 'Administrator');
    const other = await make.project(h, ws, { name: 'Other' });
    await membership(h, ws, other, ada);
    await entry(h, ws, { owner: ada, project: other, startedAt: '2026-07-07T09:00:00Z', seconds: 300 });
    await entry(h, ws, { owner: lead, project: null, startedAt: '2026-07-07T10:00:00Z', seconds: 120 });
    for (const user of [ada, lead]) {
      const listed = Object.values<any>((await as(h, ws, user).get('/api/activities', undefined, { query: { from: JULY.start, to: JULY.end } })).body);
      const body = await report(h, ws, { dimensions: ['user'], metrics: ['time'] }, { by: user });
      expect(body.totals.entries).toBe(listed.length);
    }
    const byLead = await report(h, ws, { dimensions: ['project', 'user'], metrics: ['time'] }, { by: lead });
    expect(byLead.rows.map((row: any) => [row.label, row.rows.map((inner: any) => inner.label)])).toEqual([
      ['Apollo', ['Ada']],
      ['No project', ['Lead']],
    ]);
    const byAda = await report(h, ws, { dimensions: ['project'], metrics: ['time', 'billableTime'] }, { by: ada });
    expect(byAda.totals).toEqual({ entries: 3, time: 5700, billableTime: 3900 });
  });

  it('money by role: cost and profit are 403 for anyone but an Administrator, revenue 403 for a User who administers no project', async () => {
    const { ws, ada, apollo } = await apolloWorld();
    const lead = await namedUser(h, ws, 'Lead');
    await membership(h, ws, apollo, lead, 'Administrator');
    for (const metric of ['cost', 'profit']) {
      for (const user of [ada, lead]) {
        const res = await runReport(h, ws, { dimensions: ['project'], metrics: ['time', metric] }, { by: user });
        expect(res.status).toBe(403);
        expect(res.body.detail).toContain(`metric ${metric}`);
      }
    }
    const revenue = await runReport(h, ws, { dimensions: ['project'], metrics: ['revenue'] }, { by: ada });
    expect(revenue.status).toBe(403);
    expect(revenue.body.detail).toContain('metric revenue');
    expect((await runReport(h, ws, { dimensions: ['project'], metrics: ['revenue'] }, { by: lead })).status).toBe(200);
  });

  it('a project admin gets revenue for the projects they administer only; billable time elsewhere is revenueWithheldTime', async () => {
    const { ws, ada, apollo } = await apolloWorld();
    const lead = await namedUser(h, ws, 'Lead');
    await membership(h, ws, apollo, lead, 'Administrator');
    const other = await make.project(h, ws, { name: 'Other', billable: true });
    const leadOnOther = await membership(h, ws, other, lead);
    await make.revenueRate(h, ws, { project: other, member: leadOnOther, value: 70 });
    await membership(h, ws, other, ada);
    await entry(h, ws, { owner: lead, project: other, startedAt: '2026-07-08T09:00:00Z', seconds: 1800 });
    await entry(h, ws, { owner: ada, project: other, startedAt: '2026-07-08T10:00:00Z', seconds: 1800 });
    const body = await report(h, ws, { dimensions: ['project'], metrics: ['revenue'] }, { by: lead });
    expect(body.totals).toEqual({ entries: 2, revenue: { EUR: 100 }, unpricedBillableTime: 0, revenueWithheldTime: 1800 });
    expect(body.rows).toEqual([
      { key: apollo.id, label: 'Apollo', entries: 1, revenue: { EUR: 100 }, unpricedBillableTime: 0, revenueWithheldTime: 0 },
      { key: other.id, label: 'Other', entries: 1, revenue: {}, unpricedBillableTime: 0, revenueWithheldTime: 1800 },
    ]);
    const byAdmin = await report(h, ws, { dimensions: ['project'], metrics: ['revenue'] });
    expect(byAdmin.totals).toEqual({ entries: 4, revenue: { EUR: 135 }, unpricedBillableTime: 1800 });
  });

  it('a saved report runs for its owner only: anyone else, administrators included, gets 404 like the report itself', async () => {
    const { ws, ada } = await apolloWorld();
    const saved = await make.report(h, ws, { owner: ada, dimensions: ['user'], metrics: ['time'], hideEmptyRows: true });
    const own = await as(h, ws, ada).get(`/api/reports/${saved.id}/run`, undefined, { query: { timeZone: 'UTC' } });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(await report(h, ws, { dimensions: ['user'], metrics: ['time'] }, { by: ada }));
    const bob = await namedUser(h, ws, 'Bob');
    for (const user of [ws.admin, bob]) {
      const res = await as(h, ws, user).get(`/api/reports/${saved.id}/run`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not-found');
    }
    expect((await as(h, ws, ada).get('/api/reports/no-such-report/run')).status).toBe(404);
  });

  it('refuses a time zone no one has and a format it does not write with 422, and a body POST /reports refuses', async () => {
    const ws = await h.workspace();
    const zone = await runReport(h, ws, { dimensions: ['day'], metrics: ['time'] }, { query: { timeZone: 'Mars/Olympus' } });
    expect(zone.status).toBe(422);
    expect(zone.body.errors).toEqual([{ pointer: '/query/timeZone', message: 'must be an IANA time-zone name such as Europe/Berlin' }]);
    const format = await runReport(h, ws, { dimensions: ['day'], metrics: ['time'] }, { query: { format: 'ods' } });
    expect(format.status).toBe(422);
    expect(format.body.errors[0].pointer).toBe('/query/format');
    const backwards = await runReport(h, ws, { dimensions: ['day'], metrics: ['time'], start: '2026-08-01T00:00:00Z', end: '2026-07-01T00:00:00Z' });
    expect(backwards.status).toBe(422);
    const unknown = await runReport(h, ws, { dimensions: ['day'], metrics: ['time'], selectedProjects: ['nope'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].pointer).toBe('/body/selectedProjects/0');
  });
});
