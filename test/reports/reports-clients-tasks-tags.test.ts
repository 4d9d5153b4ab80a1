import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok } from '../support/harness.js';
import { catalogWorld, outline, tag, tracked } from './catalog-world.js';
import { membership, namedUser, report, runReport } from './run-world.js';

/*
 * Running a report by client, task and tag, and filtering by them (docs/rules.md §6 Reports, "Clients,
 * tasks and tags"). The world's five entries are listed in catalog-world.ts.
 */

describeEachStore('Reports by client, task and tag', (h) => {
  it('by client: a row per client keyed by its id and labelled with its name, "No client" (null) last for entries without one', async () => {
    const w = await catalogWorld(h);
    const body = await report(h, w.ws, { dimensions: ['client'], metrics: ['time'] });
    expect(body.dimensions).toEqual(['client']);
    expect(body.rows).toEqual([
      { key: w.acme.id, label: 'Acme', entries: 2, time: 5400 },
      { key: w.globex.id, label: 'Globex', entries: 1, time: 1200 },
      { key: null, label: 'No client', entries: 2, time: 1500 },
    ]);
    expect(body.totals).toEqual({ entries: 5, time: 8100 });
  });

  it('by task: a row per task keyed by its id and labelled with its name, tasks of one name apart by id, "No task" (null) last', async () => {
    const w = await catalogWorld(h);
    const body = await report(h, w.ws, { dimensions: ['task'], metrics: ['time'] });
    const designs = [
      { key: w.design.id, label: 'Design', entries: 1, time: 3600 },
      { key: w.zeusDesign.id, label: 'Design', entries: 1, time: 1200 },
    ].sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(body.rows).toEqual([{ key: w.build.id, label: 'Build', entries: 1, time: 1800 }, ...designs, { key: null, label: 'No task', entries: 2, time: 1500 }]);
    expect(body.totals).toEqual({ entries: 5, time: 8100 });
  });

  it('by tag: an entry with several tags counts in each of its tags\' rows and once in the totals, so the rows may add up to more', async () => {
    const w = await catalogWorld(h);
    const body = await report(h, w.ws, { dimensions: ['tag'], metrics: ['time', 'billableTime'] });
    expect(body.rows).toEqual([
      { key: w.review.id, label: 'Review', entries: 3, time: 5100, billableTime: 3600 },
      { key: w.urgent.id, label: 'Urgent', entries: 2, time: 5400, billableTime: 5400 },
      { key: null, label: 'No tag', entries: 1, time: 1200, billableTime: 0 },
    ]);
    expect(body.totals).toEqual({ entries: 5, time: 8100, billableTime: 5400 });
  });

  it('a tag nested under a project: the project rows count each entry once, their tag rows each entry per tag', async () => {
    const w = await catalogWorld(h);
    const body = await report(h, w.ws, { dimensions: ['project', 'tag'], metrics: ['time'] });
    expect(outline(body.rows)).toEqual([
      ['Apollo', 2, 5400],
      ['  Review', 1, 3600],
      ['  Urgent', 2, 5400],
      ['Solo', 1, 900],
      ['  Review', 1, 900],
      ['Zeus', 1, 1200],
      ['  No tag', 1, 1200],
      ['No project', 1, 600],
      ['  Review', 1, 600],
    ]);
    expect(body.totals).toEqual({ entries: 5, time: 8100 });
  });

  it('a tag over a project: each tag row counts its entries once and its project rows add up to it; the totals count each entry once', async () => {
    const w = await catalogWorld(h);
    const admin = (await ok(as(h, w.ws).get(`/api/users/${w.ws.admin.userId}`))).name;
    const body = await report(h, w.ws, { dimensions: ['tag', 'project', 'user'], metrics: ['time'] });
    expect(outline(body.rows)).toEqual([
      ['Review', 3, 5100],
      ['  Apollo', 1, 3600],
      ['    Ada', 1, 3600],
      ['  Solo', 1, 900],
      ['    Ada', 1, 900],
      ['  No project', 1, 600],
      [`    ${admin}`, 1, 600],
      ['Urgent', 2, 5400],
      ['  Apollo', 2, 5400],
      ['    Ada', 2, 5400],
      ['No tag', 1, 1200],
      ['  Zeus', 1, 1200],
      ['    Bob', 1, 1200],
    ]);
    expect(body.totals).toEqual({ entries: 5, time: 8100 });
  });

  it('client, task and tag nest with every other dimension: client over task over day', async () => {
    const w = await catalogWorld(h);
    const body = await report(h, w.ws, { dimensions: ['client', 'task', 'day'], metrics: ['time'] });
    expect(outline(body.rows)).toEqual([
      ['Acme', 2, 5400],
      ['  Build', 1, 1800],
      ['    Thu, 2 Jul 2026', 1, 1800],
      ['  Design', 1, 3600],
      ['    Wed, 1 Jul 2026', 1, 3600],
      ['Globex', 1, 1200],
      ['  Design', 1, 1200],
      ['    Fri, 3 Jul 2026', 1, 1200],
      ['No client', 2, 1500],
      ['  No task', 2, 1500],
      ['    Sat, 4 Jul 2026', 1, 600],
      ['    Sun, 5 Jul 2026', 1, 900],
    ]);
  });

  it('money by tag: each tag row rounds its own exact sum once, the rows above the tag and the totals round each entry once', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    const apollo = await make.project(h, ws, { name: 'Apollo', billable: true });
    await make.revenueRate(h, ws, { project: apollo, member: await membership(h, ws, apollo, ada), value: 10 });
    await make.costRate(h, ws, { user: ada, value: 10 });
    const [a, b] = [await tag(h, ws, 'A'), await tag(h, ws, 'B')];
    // Three entries of 20 minutes at 10 EUR an hour: 3.333… EUR each.
    for (const [day, tags] of [['06', [a]], ['07', [a, b]], ['08', [b]]] as const) {
      await tracked(h, ws, { owner: ada, project: apollo, tags: [...tags], day, seconds: 1200 });
    }
    const byTag = await report(h, ws, { dimensions: ['tag'], metrics: ['time', 'revenue', 'cost'] });
    const money = (revenue: number) => ({ revenue: { EUR: revenue }, cost: { EUR: revenue }, unpricedBillableTime: 0, uncostedTime: 0 });
    expect(byTag.rows).toEqual([
      { key: a.id, label: 'A', entries: 2, time: 2400, ...money(6.67) },
      { key: b.id, label: 'B', entries: 2, time: 2400, ...money(6.67) },
    ]);
    expect(byTag.totals).toEqual({ entries: 3, time: 3600, ...money(10) });
    const byProject = await report(h, ws, { dimensions: ['project', 'tag'], metrics: ['time', 'revenue', 'cost'] });
    expect(byProject.rows[0]).toMatchObject({ label: 'Apollo', entries: 3, time: 3600, ...money(10) });
    expect(byProject.rows[0].rows.map((row: any) => [row.label, row.revenue])).toEqual([
      ['A', { EUR: 6.67 }],
      ['B', { EUR: 6.67 }],
    ]);
    expect(byProject.totals).toEqual({ entries: 3, time: 3600, ...money(10) });
  });

  it('filters by clients and tasks, null selecting entries without one; unknown ids select nothing and are no error', async () => {
    const w = await catalogWorld(h);
    const totals = async (filters: unknown[]) => (await report(h, w.ws, { dimensions: ['user'], metrics: ['time'], filters })).totals;
    expect(await totals([{ clientIds: [w.acme.id] }])).toEqual({ entries: 2, time: 5400 });
    expect(await totals([{ clientIds: [null] }])).toEqual({ entries: 2, time: 1500 });
    expect(await totals([{ clientIds: [w.globex.id, null] }])).toEqual({ entries: 3, time: 2700 });
    expect(await totals([{ clientIds: ['no-such-client'] }])).toEqual({ entries: 0, time: 0 });
    expect(await totals([{ taskIds: [w.design.id, w.zeusDesign.id] }])).toEqual({ entries: 2, time: 4800 });
    expect(await totals([{ taskIds: [null] }])).toEqual({ entries: 2, time: 1500 });
    expect(await totals([{ taskIds: [w.build.id, null] }])).toEqual({ entries: 3, time: 3300 });
    expect(await totals([{ taskIds: ['no-such-task'] }])).toEqual({ entries: 0, time: 0 });
    expect(await totals([{ clientIds: [w.acme.id] }, { taskIds: [w.build.id] }])).toEqual({ entries: 1, time: 1800 });
  });

  it('filters by tags: any (the default) of them, all of them, or none of them; null is the "no tag" of an entry without tags', async () => {
    const w = await catalogWorld(h);
    const totals = async (filters: unknown[]) => (await report(h, w.ws, { dimensions: ['user'], metrics: ['time'], filters })).totals;
    const { urgent, review, idle } = w;
    expect(await totals([{ tagIds: [urgent.id] }])).toEqual({ entries: 2, time: 5400 });
    expect(await totals([{ tagIds: [urgent.id, review.id], match: 'any' }])).toEqual({ entries: 4, time: 6900 });
    expect(await totals([{ tagIds: [urgent.id, review.id], match: 'all' }])).toEqual({ entries: 1, time: 3600 });
    expect(await totals([{ tagIds: [review.id], match: 'none' }])).toEqual({ entries: 2, time: 3000 });
    expect(await totals([{ tagIds: [null] }])).toEqual({ entries: 1, time: 1200 });
    expect(await totals([{ tagIds: [urgent.id, null] }])).toEqual({ entries: 3, time: 6600 });
    expect(await totals([{ tagIds: [null], match: 'all' }])).toEqual({ entries: 1, time: 1200 });
    expect(await totals([{ tagIds: [urgent.id, null], match: 'all' }])).toEqual({ entries: 0, time: 0 });
    expect(await totals([{ tagIds: [null], match: 'none' }])).toEqual({ entries: 4, time: 6900 });
    expect(await totals([{ tagIds: [idle.id] }])).toEqual({ entries: 0, time: 0 });
    expect(await totals([{ tagIds: ['no-such-tag'] }])).toEqual({ entries: 0, time: 0 });
    expect(await totals([{ tagIds: ['no-such-tag', urgent.id], match: 'all' }])).toEqual({ entries: 0, time: 0 });
    expect(await totals([{ tagIds: ['no-such-tag'], match: 'none' }])).toEqual({ entries: 5, time: 8100 });
    expect(await totals([{ tagIds: [] }])).toEqual({ entries: 0, time: 0 });
    expect(await totals([{ clientIds: [w.acme.id] }, { tagIds: [review.id], match: 'none' }])).toEqual({ entries: 1, time: 1800 });
  });

  it('a filter of client, task or tag ids the grammar does not understand is listed in ignoredFilters and changes nothing; one that is no object is 422', async () => {
    const w = await catalogWorld(h);
    const ignored = [
      { tagIds: w.urgent.id },
      { match: 'all' },
      { tagIds: [w.urgent.id], match: 'some' },
      { clientIds: [7] },
      { taskIds: 'all' },
      { tagIds: [w.urgent.id], color: 'red' },
    ];
    const body = await report(h, w.ws, { dimensions: ['tag'], metrics: ['time'], filters: ignored });
    expect(body.ignoredFilters).toEqual(ignored);
    expect(body.totals).toEqual({ entries: 5, time: 8100 });
    const refused = await runReport(h, w.ws, { dimensions: ['tag'], metrics: ['time'], filters: [{ tagIds: [w.urgent.id] }, 'tagIds'] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].pointer).toBe('/body/filters/1');
    const unknownDimension = await runReport(h, w.ws, { dimensions: ['tags'], metrics: ['time'] });
    expect(unknownDimension.status).toBe(422);
    expect(unknownDimension.body.errors[0].pointer).toBe('/body/dimensions/0');
  });

  it('hideEmptyRows false by client: the clients of the projects filled, under a client its projects; a client without projects is never a row', async () => {
    const w = await catalogWorld(h);
    const empty = await make.client(h, w.ws, { name: 'Empty' });
    await make.client(h, w.ws, { name: 'Lonely' });
    await make.project(h, w.ws, { name: 'Quiet', clientId: empty.id });
    const body = await report(h, w.ws, { dimensions: ['client', 'project'], metrics: ['time'], hideEmptyRows: false });
    expect(outline(body.rows)).toEqual([
      ['Acme', 2, 5400],
      ['  Apollo', 2, 5400],
      ['Empty', 0, 0],
      ['  Quiet', 0, 0],
      ['Globex', 1, 1200],
      ['  Zeus', 1, 1200],
      ['No client', 2, 1500],
      ['  Solo', 1, 900],
      ['  No project', 1, 600],
    ]);
    expect(body.totals).toEqual({ entries: 5, time: 8100 });
  });

  it('hideEmptyRows false by task and by tag: the tasks of the projects filled, every tag but those a none filter leaves out', async () => {
    const w = await catalogWorld(h);
    const spare = await make.task(h, w.ws, { project: w.apollo, name: 'Spare', archived: true });
    const byTask = await report(h, w.ws, { dimensions: ['project', 'task'], metrics: ['time'], hideEmptyRows: false });
    expect(outline([byTask.rows[0]])).toEqual([
      ['Apollo', 2, 5400],
      ['  Build', 1, 1800],
      ['  Design', 1, 3600],
      ['  Spare', 0, 0],
    ]);
    expect(byTask.rows[0].rows.map((row: any) => row.key)).toEqual([w.build.id, w.design.id, spare.id]);
    // Solo has no task: under it only the entries' own "No task" row.
    expect(outline([byTask.rows[1]])).toEqual([
      ['Solo', 1, 900],
      ['  No task', 1, 900],
    ]);
    const byTag = await report(h, w.ws, { dimensions: ['tag'], metrics: ['time'], hideEmptyRows: false });
    expect(outline(byTag.rows)).toEqual([
      ['Idle', 0, 0],
      ['Review', 3, 5100],
      ['Urgent', 2, 5400],
      ['No tag', 1, 1200],
    ]);
    const noneOfIdle = await report(h, w.ws, { dimensions: ['tag'], metrics: ['time'], hideEmptyRows: false, filters: [{ tagIds: [w.idle.id], match: 'none' }] });
    expect(noneOfIdle.rows.map((row: any) => row.label)).toEqual(['Review', 'Urgent', 'No tag']);
    const underTag = await report(h, w.ws, { dimensions: ['project', 'tag'], metrics: ['time'], hideEmptyRows: false });
    expect(outline(underTag.rows).slice(0, 4)).toEqual([
      ['Apollo', 2, 5400],
      ['  Idle', 0, 0],
      ['  Review', 1, 3600],
      ['  Urgent', 2, 5400],
    ]);
    expect(underTag.totals).toEqual({ entries: 5, time: 8100 });
  });

  it('a User sees their own entries by client, task and tag, and empty rows of only the clients and tasks of their projects, and every tag', async () => {
    const w = await catalogWorld(h);
    const hidden = await make.client(h, w.ws, { name: 'Hidden' });
    const secret = await make.project(h, w.ws, { name: 'Secret', clientId: hidden.id });
    await make.task(h, w.ws, { project: secret, name: 'Hush' });
    await tracked(h, w.ws, { owner: w.ws.admin, project: secret, day: '06', seconds: 60 });
    const run = (dimensions: string[], by = w.ada) => report(h, w.ws, { dimensions, metrics: ['time'], hideEmptyRows: false }, { by });
    expect(outline((await run(['client'])).rows)).toEqual([
      ['Acme', 2, 5400],
      ['Globex', 0, 0],
      ['No client', 1, 900],
    ]);
    expect((await run(['client'], w.ws.admin)).rows.map((row: any) => row.label)).toEqual(['Acme', 'Globex', 'Hidden', 'No client']);
    // Two tasks named Design (Apollo's with Ada's hour, Zeus's empty for her) in the order of their ids.
    const designs = ([[w.design.id, 3600], [w.zeusDesign.id, 0]] as const).slice().sort(([a], [b]) => (a < b ? -1 : 1)).map(([, time]) => ['Design', time]);
    expect((await run(['task'])).rows.map((row: any) => [row.label, row.time])).toEqual([['Build', 1800], ...designs, ['No task', 900]]);
    expect((await run(['task'], w.ws.admin)).rows.map((row: any) => row.label)).toContain('Hush');
    expect(outline((await run(['tag'])).rows)).toEqual([
      ['Idle', 0, 0],
      ['Review', 2, 4500],
      ['Urgent', 2, 5400],
    ]);
    expect((await run(['tag'])).totals).toEqual({ entries: 3, time: 6300 });
  });

  it('an archived task or tag keeps its rows; a deleted task\'s entries count under No task, a deleted tag\'s leave its row', async () => {
    const w = await catalogWorld(h);
    await ok(as(h, w.ws).put(`/api/tags/${w.review.id}`, { archived: true }));
    await ok(as(h, w.ws).put(`/api/projects/${w.apollo.id}/tasks/${w.design.id}`, { archived: true }));
    const rows = async (dimension: string) => (await report(h, w.ws, { dimensions: [dimension], metrics: ['time'] })).rows.map((row: any) => [row.label, row.entries]);
    expect(await rows('tag')).toEqual([
      ['Review', 3],
      ['Urgent', 2],
      ['No tag', 1],
    ]);
    expect((await rows('task'))[1]).toEqual(['Design', 1]);
    expect((await as(h, w.ws).delete(`/api/tags/${w.urgent.id}`)).status).toBe(200);
    expect((await as(h, w.ws).delete(`/api/projects/${w.apollo.id}/tasks/${w.build.id}`)).status).toBe(200);
    expect(await rows('tag')).toEqual([
      ['Review', 3],
      ['No tag', 2],
    ]);
    expect((await rows('task')).at(-1)).toEqual(['No task', 3]);
  });

  it('a saved report by tag and client runs as the same definition run ad hoc', async () => {
    const w = await catalogWorld(h);
    const definition = { dimensions: ['tag', 'client'], metrics: ['time'], filters: [{ tagIds: [w.urgent.id, w.review.id] }], hideEmptyRows: true };
    const saved = await make.report(h, w.ws, definition);
    expect(saved).toMatchObject({ dimensions: ['tag', 'client'] });
    const run = await ok(as(h, w.ws).get(`/api/reports/${saved.id}/run`, undefined, { query: { timeZone: 'UTC' } }));
    expect(run).toEqual(await report(h, w.ws, definition));
    expect(outline(run.rows)).toEqual([
      ['Review', 3, 5100],
      ['  Acme', 1, 3600],
      ['  No client', 2, 1500],
      ['Urgent', 2, 5400],
      ['  Acme', 2, 5400],
    ]);
    expect(run.totals).toEqual({ entries: 4, time: 6900 });
  });
});
