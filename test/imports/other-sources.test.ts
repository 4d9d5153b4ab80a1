import { expect, it } from 'vitest';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { activitiesOf, byName, counts, csv, importFile } from './support.js';

/** docs/rules.md §6 Imports: Clockify, Harvest and Kimai files, each in its own layout. */

const CLOCKIFY_HEADER =
  'Project,Client,Description,Task,User,Group,Email,Tags,Billable,Start Date,Start Time,End Date,End Time,Duration (h),Duration (decimal),Billable Rate (USD),Billable Amount (USD)';
const CLOCKIFY_2024_HEADER = 'Project,Description,Activity,User,Email,Tags,Billable,Invoiced,Start Date,Start Time,End Date,End Time,Duration (h),Duration (decimal)';

const HARVEST_HEADER =
  'Date,Client,Project,Project Code,Task,Notes,Hours,Hours Rounded,Billable?,Invoiced?,Approved?,First Name,Last Name,Roles,Employee?,Billable Rate,Billable Amount,Cost Rate,Cost Amount,Currency,External Reference URL';

const KIMAI_HEADER = 'Date;From;To;Duration;Rate;User;E-mail;Customer;Project;Activity;Description;Exported;Billable;Tags';

/** The detailed report's entries over a period, with revenue and cost. */
async function reportEntries(h: Harness, ws: TestWorkspace, start: string, end: string): Promise<any[]> {
  const res = await as(h, ws).post('/api/reports/entries?timeZone=UTC', { period: 'custom', start, end, dimensions: ['project'], metrics: ['time', 'revenue', 'cost'] });
  expect(res.status).toBe(200);
  return res.body.entries;
}

async function namedUser(h: Harness, ws: TestWorkspace, email: string, name: string) {
  const user = await h.user(ws, { email });
  await ok(as(h, ws).put(`/api/users/${user.userId}`, { name }));
  return user;
}

describeEachStore('Imports from Clockify, Harvest and Kimai (docs/rules.md §6 Imports)', (h) => {
  it('Clockify: 12-hour times, a date with a first number above 12 makes the whole file DMY, and Billable Rate (USD) becomes the member\'s revenue rate: the report earns the file\'s amounts to the cent', async () => {
    const ws = await h.workspace();
    const file = csv(
      CLOCKIFY_HEADER,
      'Website,Acme,Design,Mockups,Ann Lee,,ann@example.com,"bug, meeting",Yes,13/01/2026,09:00 AM,13/01/2026,11:00 AM,02:00:00,2.00,19.99,39.98',
      'Website,Acme,Review,Mockups,Ann Lee,,ann@example.com,,Yes,02/01/2026,01:30 PM,02/01/2026,02:00 PM,00:30:00,0.50,19.99,10.00',
    );
    const done = await importFile(h, ws, 'clockify', file, { timeZone: 'UTC' });
    expect(done).toMatchObject({ status: 'succeeded', errors: [], created: counts({ clients: 1, projects: 1, tasks: 1, tags: 2, users: 1, members: 1, activities: 2, revenueRates: 1 }) });
    const [review, design] = await activitiesOf(h, ws);
    // 02/01/2026 is the 2nd of January: the 13/01 of the other row decided DMY.
    expect(review).toMatchObject({ name: 'Review', startedAt: '2026-01-02T13:30:00.000Z', endedAt: '2026-01-02T14:00:00.000Z', billable: true });
    expect(design).toMatchObject({ name: 'Design', startedAt: '2026-01-13T09:00:00.000Z', endedAt: '2026-01-13T11:00:00.000Z' });
    const projects = await byName(h, ws, '/api/projects');
    const [[memberId]] = Object.entries(await ok(as(h, ws).get(`/api/projects/${projects.Website.id}/members`)));
    const rates = Object.values(await ok(as(h, ws).get(`/api/projects/${projects.Website.id}/members/${memberId}/rates/revenue`))) as any[];
    expect(rates).toEqual([
      { id: expect.any(String), projectId: projects.Website.id, memberId, currency: 'USD', from: '2026-01-02T13:30:00.000Z', to: '2026-01-13T11:00:00.000Z', taxRate: 0, value: 19.99 },
    ]);
    const entries = await reportEntries(h, ws, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
    // The file's Billable Amount of each row: 0.5 h × 19.99 = 9.995, 10.00 to the cent; 2 h × 19.99 = 39.98.
    expect(entries.map((entry) => entry.revenue)).toEqual([{ USD: 10 }, { USD: 39.98 }]);
  });

  it('Clockify\'s 2024 layout names the task Activity and has no Client; dates that decide nothing fail the import with date-format-ambiguous unless dateFormat says', async () => {
    const ws = await h.workspace();
    const file = csv(CLOCKIFY_2024_HEADER, 'Website,Standup,Meetings,Ann Lee,ann@example.com,,No,No,01/02/2026,09:00,01/02/2026,09:15,00:15:00,0.25');
    const ambiguous = await importFile(h, ws, 'clockify', file, { timeZone: 'UTC' });
    expect(ambiguous).toMatchObject({
      status: 'failed',
      created: counts(),
      errors: [{ row: 1, column: 'Start Date', code: 'date-format-ambiguous', message: 'No date of the file tells day from month: run the import again with dateFormat MDY or DMY.' }],
    });
    expect(await activitiesOf(h, ws)).toEqual([]);
    const decided = await importFile(h, ws, 'clockify', file, { timeZone: 'UTC', dateFormat: 'MDY' });
    expect(decided).toMatchObject({ status: 'succeeded', created: counts({ projects: 1, tasks: 1, users: 1, members: 1, activities: 1 }) });
    const [standup] = await activitiesOf(h, ws);
    expect(standup).toMatchObject({ startedAt: '2026-01-02T09:00:00.000Z', endedAt: '2026-01-02T09:15:00.000Z', billable: false });
    const tasks = Object.values(await ok(as(h, ws).get(`/api/projects/${standup.projectId}/tasks`))) as any[];
    expect(tasks.map((task) => task.name)).toEqual(['Meetings']);
  });

  it('dates of both orders in one file: the first that decides wins, the others are invalid-date', async () => {
    const ws = await h.workspace();
    const file = csv(
      CLOCKIFY_2024_HEADER,
      'Website,A,,Ann,ann@example.com,,No,No,13/01/2026,09:00,13/01/2026,10:00,,',
      'Website,B,,Ann,ann@example.com,,No,No,01/13/2026,09:00,01/13/2026,10:00,,',
    );
    const done = await importFile(h, ws, 'clockify', file, { timeZone: 'UTC' });
    expect(done).toMatchObject({ status: 'failed', errorCount: 2 });
    expect(done.errors.map((error: any) => [error.row, error.column, error.code])).toEqual([
      [2, 'Start Date', 'invalid-date'],
      [2, 'End Date', 'invalid-date'],
    ]);
  });

  it('Harvest: people matched by full name, "1,5" hours, entries of a person\'s day laid end to end from 09:00, Billable Rate and Cost Rate in the Currency cell become rates', async () => {
    const ws = await h.workspace();
    const ann = await namedUser(h, ws, 'ann@example.com', 'Ann Lee');
    const file = csv(
      HARVEST_HEADER,
      '2026-01-13,Acme,Website,W1,Design,Mockups,"1,5",1.5,Yes,No,No,Ann,Lee,,Yes,100,150,40,60,Euro - EUR,',
      '2026-01-13,Acme,Website,W1,Design,Review,0.5,0.5,Yes,No,No,ann,lee,,Yes,100,50,40,20,Euro - EUR,',
      '2026-01-14,Acme,Website,W1,Design,Next day,1,1,No,No,No,Ann,Lee,,Yes,100,0,40,40,Euro - EUR,',
    );
    const done = await importFile(h, ws, 'harvest', file, { timeZone: 'Europe/Berlin' });
    expect(done).toMatchObject({ status: 'succeeded', errors: [], created: counts({ clients: 1, projects: 1, tasks: 1, members: 1, activities: 3, revenueRates: 1, costRates: 1 }) });
    const activities = await activitiesOf(h, ws);
    expect(activities.map((activity) => [activity.name, activity.startedAt, activity.endedAt, activity.userId, activity.billable])).toEqual([
      ['Mockups', '2026-01-13T08:00:00.000Z', '2026-01-13T09:30:00.000Z', ann.userId, true],
      ['Review', '2026-01-13T09:30:00.000Z', '2026-01-13T10:00:00.000Z', ann.userId, true],
      ['Next day', '2026-01-14T08:00:00.000Z', '2026-01-14T09:00:00.000Z', ann.userId, false],
    ]);
    const cost = Object.values(await ok(as(h, ws).get(`/api/users/${ann.userId}/rates/cost`))) as any[];
    expect(cost).toEqual([{ id: expect.any(String), userId: ann.userId, currency: 'EUR', from: '2026-01-13T08:00:00.000Z', to: '2026-01-14T09:00:00.000Z', taxRate: 0, value: 40 }]);
    const entries = await reportEntries(h, ws, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
    expect(entries.map((entry) => [entry.revenue, entry.cost])).toEqual([
      [{ EUR: 150 }, { EUR: 60 }],
      [{ EUR: 50 }, { EUR: 20 }],
      [{}, { EUR: 40 }],
    ]);
  });

  it('Harvest: a name nobody of the workspace has is user-unknown at First Name, never a placeholder account', async () => {
    const ws = await h.workspace();
    const file = csv(HARVEST_HEADER, '2026-01-13,,Website,,,Notes,1,1,No,No,No,Zed,Nobody,,Yes,,,,,,');
    const done = await importFile(h, ws, 'harvest', file, { timeZone: 'UTC' });
    expect(done).toMatchObject({
      status: 'failed',
      errors: [{ row: 1, column: 'First Name', code: 'user-unknown', message: 'Nobody of the workspace is named "Zed Nobody": invite them first, or import a file with their email.' }],
    });
    expect(Object.keys(await ok(as(h, ws).get('/api/users')))).toEqual([ws.admin.userId]);
  });

  it('a rate of the file that differs from one in force keeps the existing rate, with a warning; one that matches is no warning', async () => {
    const ws = await h.workspace();
    const ann = await namedUser(h, ws, 'ann@example.com', 'Ann Lee');
    await ok(as(h, ws).post(`/api/users/${ann.userId}/rates/cost`, { currency: 'EUR', from: '2026-01-01T00:00:00Z', taxRate: 0, value: 50 }));
    const file = csv(HARVEST_HEADER, '2026-01-13,,Website,,,Notes,1,1,No,No,No,Ann,Lee,,Yes,,,40,40,EUR,');
    const done = await importFile(h, ws, 'harvest', file, { timeZone: 'UTC' });
    expect(done).toMatchObject({ status: 'succeeded', created: counts({ projects: 1, members: 1, activities: 1 }) });
    expect(done.warnings).toEqual([{ row: 1, column: null, code: 'kept-existing', message: 'The cost rate in force (50 EUR) is kept; the file has 40 EUR.' }]);
    expect((Object.values(await ok(as(h, ws).get(`/api/users/${ann.userId}/rates/cost`))) as any[]).map((rate) => rate.value)).toEqual([50]);
  });

  it('Kimai: a semicolon-delimited file with a quoted semicolon, Customer and Activity as client and task, a To before From on the next day', async () => {
    const ws = await h.workspace();
    const file = csv(
      KIMAI_HEADER,
      '2026-01-13;22:00;01:00;3:00;0;ann;ann@example.com;Acme;Website;Support;"Night; on call";0;1;ops',
      '2026-01-14;09:00;09:30;0:30;0;ann;ann@example.com;Acme;Website;Support;Handover;0;0;',
    );
    const done = await importFile(h, ws, 'kimai', file, { timeZone: 'UTC' });
    expect(done).toMatchObject({ status: 'succeeded', errors: [], created: counts({ clients: 1, projects: 1, tasks: 1, tags: 1, users: 1, members: 1, activities: 2 }) });
    const [night, handover] = await activitiesOf(h, ws);
    expect(night).toMatchObject({ name: 'Night; on call', startedAt: '2026-01-13T22:00:00.000Z', endedAt: '2026-01-14T01:00:00.000Z', billable: true });
    expect(handover).toMatchObject({ name: 'Handover', billable: false, tagIds: [] });
    const clients = await byName(h, ws, '/api/clients');
    const projects = await byName(h, ws, '/api/projects');
    expect(projects.Website.clientId).toBe(clients.Acme.id);
  });

  it('existing clients, projects, tasks and tags are matched by name regardless of case, never duplicated', async () => {
    const ws = await h.workspace();
    const client = await ok(as(h, ws).post('/api/clients', { name: 'ACME' }));
    const project = await ok(as(h, ws).post('/api/projects', { name: 'website', clientId: client.id }));
    const task = await ok(as(h, ws).post(`/api/projects/${project.id}/tasks`, { name: 'SUPPORT' }));
    const tag = await ok(as(h, ws).post('/api/tags', { name: 'Ops' }));
    const file = csv(KIMAI_HEADER, '2026-01-14;09:00;09:30;0:30;0;ann;ann@example.com; acme ;Website;support;Handover;0;0;OPS');
    const done = await importFile(h, ws, 'kimai', file, { timeZone: 'UTC' });
    expect(done.created).toEqual(counts({ users: 1, members: 1, activities: 1 }));
    const [handover] = await activitiesOf(h, ws);
    expect(handover).toMatchObject({ projectId: project.id, taskId: task.id, tagIds: [tag.id] });
  });
});
