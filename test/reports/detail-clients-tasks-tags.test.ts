import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok } from '../support/harness.js';
import { catalogWorld } from './catalog-world.js';

/*
 * The detailed report's clients, tasks and tags (docs/rules.md §6 Detailed report): each entry's
 * client and task `{id, name}` or null and its tags `[{id, name}]`, and the filters by them selecting
 * what the summary counts. The world's five entries are listed in catalog-world.ts.
 */

const JULY = { period: 'custom', start: '2026-07-01T00:00:00Z', end: '2026-08-01T00:00:00Z', dimensions: ['tag'], metrics: ['time'] };

describeEachStore('Detailed report: clients, tasks and tags', (h) => {
  it('each entry carries its project\'s client and its task ({id, name} or null) and its tags ([{id, name}] in the activity\'s order)', async () => {
    const w = await catalogWorld(h);
    const saved = await make.report(h, w.ws, { ...JULY, name: 'July' });
    const page = await ok(as(h, w.ws).get(`/api/reports/${saved.id}/entries?timeZone=UTC`));
    const shown = page.entries.map(({ name, client, task, tags }: any) => ({ name, client, task, tags }));
    expect(shown).toEqual([
      {
        name: 'One',
        client: { id: w.acme.id, name: 'Acme' },
        task: { id: w.design.id, name: 'Design' },
        tags: [
          { id: w.urgent.id, name: 'Urgent' },
          { id: w.review.id, name: 'Review' },
        ],
      },
      { name: 'Two', client: { id: w.acme.id, name: 'Acme' }, task: { id: w.build.id, name: 'Build' }, tags: [{ id: w.urgent.id, name: 'Urgent' }] },
      { name: 'Three', client: { id: w.globex.id, name: 'Globex' }, task: { id: w.zeusDesign.id, name: 'Design' }, tags: [] },
      { name: 'Four', client: null, task: null, tags: [{ id: w.review.id, name: 'Review' }] },
      { name: 'Five', client: null, task: null, tags: [{ id: w.review.id, name: 'Review' }] },
    ]);
    expect(page.entries[0]).toMatchObject({ project: { id: w.apollo.id, name: 'Apollo' }, duration: 3600 });
  });

  it('the names are those of now: a renamed tag, task or client, and a project moved to another client, show their current ones', async () => {
    const w = await catalogWorld(h);
    await ok(as(h, w.ws).put(`/api/tags/${w.urgent.id}`, { name: 'Hot' }));
    await ok(as(h, w.ws).put(`/api/projects/${w.apollo.id}/tasks/${w.design.id}`, { name: 'Drafting' }));
    await ok(as(h, w.ws).put(`/api/clients/${w.globex.id}`, { name: 'Globex Ltd' }));
    await ok(as(h, w.ws).put(`/api/projects/${w.solo.id}`, { clientId: w.globex.id }));
    const { entries } = await ok(as(h, w.ws).post('/api/reports/entries?timeZone=UTC', JULY));
    const byName = Object.fromEntries(entries.map((entry: any) => [entry.name, entry]));
    expect(byName.One).toMatchObject({ task: { id: w.design.id, name: 'Drafting' }, tags: [{ id: w.urgent.id, name: 'Hot' }, { id: w.review.id, name: 'Review' }] });
    expect(byName.Three.client).toEqual({ id: w.globex.id, name: 'Globex Ltd' });
    expect(byName.Five.client).toEqual({ id: w.globex.id, name: 'Globex Ltd' });
  });

  it('the filters by client, task and tag keep in the detailed report exactly the entries its summary counts', async () => {
    const w = await catalogWorld(h);
    const cases: Array<[unknown[], string[]]> = [
      [[{ clientIds: [w.acme.id] }], ['One', 'Two']],
      [[{ clientIds: [null] }], ['Four', 'Five']],
      [[{ taskIds: [w.zeusDesign.id, null] }], ['Three', 'Four', 'Five']],
      [[{ tagIds: [w.urgent.id, w.review.id], match: 'all' }], ['One']],
      [[{ tagIds: [w.review.id], match: 'none' }], ['Two', 'Three']],
      [[{ tagIds: [null] }], ['Three']],
      [[{ tagIds: ['no-such-tag'] }], []],
    ];
    for (const [filters, names] of cases) {
      const definition = { ...JULY, dimensions: ['user'], filters };
      const detailed = await ok(as(h, w.ws).post('/api/reports/entries?timeZone=UTC', definition));
      const summary = await ok(as(h, w.ws).post('/api/reports/run?timeZone=UTC', { ...definition, hideEmptyRows: true }));
      expect(detailed.entries.map((entry: any) => entry.name), JSON.stringify(filters)).toEqual(names);
      expect(summary.totals.entries).toBe(names.length);
    }
  });

  it('a User sees the client, task and tags of their own entries, and only their own entries', async () => {
    const w = await catalogWorld(h);
    const { entries } = await ok(as(h, w.ws, w.ada).post('/api/reports/entries?timeZone=UTC', JULY));
    expect(entries.map((entry: any) => [entry.name, entry.client?.name ?? null, entry.task?.name ?? null, entry.tags.map((tag: any) => tag.name)])).toEqual([
      ['One', 'Acme', 'Design', ['Urgent', 'Review']],
      ['Two', 'Acme', 'Build', ['Urgent']],
      ['Five', null, null, ['Review']],
    ]);
  });

  it('a task or tag deleted after the fact leaves the entries (task null, the tag out of tags), whose time stays', async () => {
    const w = await catalogWorld(h);
    expect((await as(h, w.ws).delete(`/api/projects/${w.apollo.id}/tasks/${w.design.id}`)).status).toBe(200);
    expect((await as(h, w.ws).delete(`/api/tags/${w.urgent.id}`)).status).toBe(200);
    const { entries } = await ok(as(h, w.ws).post('/api/reports/entries?timeZone=UTC', JULY));
    expect(entries[0]).toMatchObject({ name: 'One', task: null, tags: [{ id: w.review.id, name: 'Review' }], duration: 3600 });
    expect(entries[1]).toMatchObject({ name: 'Two', task: { id: w.build.id, name: 'Build' }, tags: [] });
  });
});
