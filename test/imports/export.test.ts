import { afterAll, beforeAll, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { buildApp } from '../support/src.js';
import { testStores } from '../support/stores.js';
import { counts, exportOf, importArchive, unzip } from './support.js';

/** docs/rules.md §6 Export: GET /export, and the archive imported back with source=timetrack. */

interface World {
  ws: TestWorkspace;
  ann: TestUser;
}

/** A workspace with one record of every kind an export carries. */
async function world(h: Harness): Promise<World> {
  const ws = await h.workspace();
  const ann = await h.user(ws, { email: `ann-${ws.domain}@example.com` });
  const api = as(h, ws);
  await ok(api.put('/api/organization', { timeZone: 'Europe/Berlin', currency: 'EUR' }));
  const client = await ok(api.post('/api/clients', { name: 'Acme' }));
  const project = await ok(api.post('/api/projects', { name: 'Website', clientId: client.id, billable: true }));
  const member = await make.member(h, ws, { project, user: ann });
  const task = await ok(api.post(`/api/projects/${project.id}/tasks`, { name: 'Design' }));
  const tag = await ok(api.post('/api/tags', { name: 'meeting' }));
  await make.revenueRate(h, ws, { project, member, value: 19.99, currency: 'EUR', from: '2026-01-01T00:00:00Z' });
  await make.costRate(h, ws, { user: ann, value: 40, currency: 'EUR', from: '2026-01-01T00:00:00Z' });
  await ok(
    as(h, ws, ann).post('/api/activities', {
      name: 'Mockups',
      projectId: project.id,
      taskId: task.id,
      tagIds: [tag.id],
      startedAt: '2026-03-02T09:00:00Z',
      endedAt: '2026-03-02T10:30:00Z',
    }),
  );
  // Longer than a day: the listing's look-back must follow it into the other workspace.
  await ok(as(h, ws, ann).post('/api/activities', { name: 'Offsite', startedAt: '2026-03-05T08:00:00Z', endedAt: '2026-03-07T08:00:00Z' }));
  await make.report(h, ws, { owner: ann, name: 'Ann by project', period: 'custom', start: '2026-03-01T00:00:00Z', end: '2026-04-01T00:00:00Z', dimensions: ['project'], metrics: ['time'], filters: [{ projectIds: [project.id] }] });
  await make.lock(h, ws, { user: ann, year: 2026, week: 10 });
  await ok(api.post('/api/geofences', { latitude: 52.5, longitude: 13.4, radius: 100, name: 'Office', projectId: project.id }));
  await ok(api.post('/api/webhooks', { url: 'https://hooks.example.com/timetrack', events: ['activity.created'] }));
  return { ws, ann };
}

/** The listings an import must reproduce, with every id replaced by what it names (ids differ where they were taken). */
async function listings(h: Harness, ws: TestWorkspace, ann: TestUser) {
  const api = as(h, ws);
  const names = new Map<string, string>();
  const users = (await ok(api.get('/api/users'))) as Record<string, any>;
  for (const user of Object.values(users)) names.set(user.id, `user:${user.email}`);
  const records: Record<string, any[]> = {};
  for (const path of ['/api/clients', '/api/projects', '/api/tags', '/api/geofences']) {
    const found = Object.values((await ok(api.get(path))) as Record<string, any>);
    for (const record of found) names.set(record.id, `${path}:${record.name}`);
    records[path] = found;
  }
  for (const project of records['/api/projects']) {
    const tasks = Object.values((await ok(api.get(`/api/projects/${project.id}/tasks`))) as Record<string, any>);
    for (const task of tasks) names.set(task.id, `task:${task.name}`);
    records[`tasks of ${project.name}`] = tasks;
    const members = Object.entries((await ok(api.get(`/api/projects/${project.id}/members`))) as Record<string, any>);
    for (const [id, member] of members) names.set(id, `member:${names.get(member.userId)}`);
    records[`members of ${project.name}`] = members.map(([id, member]) => ({ id, ...member }));
    records[`rates of ${project.name}`] = [];
    for (const [id] of members) {
      records[`rates of ${project.name}`].push(...Object.values((await ok(api.get(`/api/projects/${project.id}/members/${id}/rates/revenue`))) as Record<string, any>));
    }
  }
  const annHere = Object.values(users).find((user) => user.email === ann.email);
  records.costRates = Object.values((await ok(api.get(`/api/users/${annHere.id}/rates/cost`))) as Record<string, any>);
  records.activities = Object.values((await ok(api.get('/api/activities?from=2026-03-06T00:00:00Z'))) as Record<string, any>);
  records.locks = Object.values((await ok(api.get('/api/timesheets/locks'))) as Record<string, any>);
  records.users = Object.values(users).filter((user) => user.email === ann.email);
  const organization = await ok(api.get('/api/organization'));
  records.organization = [{ timeZone: organization.timeZone, currency: organization.currency }];
  const named = (value: unknown): unknown => {
    if (typeof value === 'string') return names.get(value) ?? value;
    if (Array.isArray(value)) return value.map(named).sort();
    if (value !== null && typeof value === 'object') {
      // A record's own id, where nothing names it (an activity, a rate, a lock): ids differ where they were taken.
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === 'id' && !names.has(item as string) ? 'own id' : named(item)]));
    }
    return value;
  };
  return named(records);
}

describeEachStore('Export and import back (docs/rules.md §6 Export)', (h) => {
  /** Another deployment: an app of its own, on a store of its own. */
  const elsewhere = {} as Harness;
  beforeAll(async () => {
    const store = testStores.find((candidate) => candidate.name === h.store)!;
    elsewhere.app = await buildApp({ config: { ...h.config, databaseUrl: store.freshUrl() } });
    elsewhere.store = h.store;
    elsewhere.workspace = () => make.workspace(elsewhere);
    elsewhere.call = async (method, url, options = {}) => {
      const res = await elsewhere.app.inject({
        method: method as 'GET',
        url,
        query: options.query,
        headers: { accept: 'application/json', host: options.host!, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
        payload: options.body !== undefined ? JSON.stringify(options.body) : options.payload,
      });
      return { status: res.statusCode, headers: res.headers, body: res.body === '' ? undefined : JSON.parse(res.body), text: res.body };
    };
  });
  afterAll(async () => {
    await elsewhere.app?.close();
  });

  it('GET /export is a ZIP: organization.json, a JSON line per record of each table, webhooks without secrets, and manifest.json with the counts', async () => {
    const { ws } = await world(h);
    const files = await unzip(await exportOf(h, ws));
    const manifest = JSON.parse(files['manifest.json']);
    expect(manifest).toMatchObject({ format: 'timetrack-export', version: 1, exportedAt: expect.any(String) });
    expect(manifest.counts).toMatchObject({ users: 2, clients: 1, projects: 1, project_members: 2, tasks: 1, tags: 1, revenue_rates: 1, cost_rates: 1, activities: 2, activity_tags: 1, reports: 1, timesheet_locks: 1, geofences: 1, webhooks: 1 });
    for (const [table, count] of Object.entries(manifest.counts as Record<string, number>)) {
      expect(files[`${table}.jsonl`].split('\n').filter(Boolean)).toHaveLength(count);
    }
    expect(JSON.parse(files['organization.json'])).toMatchObject({ time_zone: 'Europe/Berlin', currency: 'EUR' });
    const webhook = JSON.parse(files['webhooks.jsonl']);
    expect(webhook).toMatchObject({ url: 'https://hooks.example.com/timetrack', enabled: true });
    expect(Object.keys(webhook).some((key) => key.includes('secret'))).toBe(false);
    expect(files['users.jsonl']).toContain(`"email":"admin@${ws.domain}.example.com"`);
    expect(files['users.jsonl']).not.toContain('account_id');
  });

  it("an export holds nothing of another workspace: none of its ids, emails or names", async () => {
    const a = await world(h);
    const b = await world(h);
    const files = Object.values(await unzip(await exportOf(h, a.ws))).join('\n');
    const theirs = [b.ws.organizationId, b.ws.admin.userId, b.ann.userId, b.ann.email, b.ws.admin.email];
    for (const path of ['/api/projects', '/api/clients', '/api/tags', '/api/geofences', '/api/webhooks', '/api/activities?from=2026-01-01T00:00:00Z']) {
      const listed = await ok(as(h, b.ws).get(path));
      theirs.push(...(Array.isArray(listed) ? listed.map((record: any) => record.id) : Object.keys(listed)));
    }
    for (const value of theirs) expect(files).not.toContain(value);
    expect(files).toContain(a.ann.email);
  });

  it('a User is 403 at GET /export', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    expect((await as(h, ws, user).get('/api/export')).status).toBe(403);
  });

  it('imported into an empty workspace of another deployment, every listing is the same record for record, ids kept', async () => {
    const { ws, ann } = await world(h);
    const archive = await exportOf(h, ws);
    const target = await make.workspace(elsewhere);
    const done = await importArchive(elsewhere, target, archive);
    expect(done).toMatchObject({ status: 'succeeded', errors: [], created: counts({ clients: 1, projects: 1, tasks: 1, tags: 1, users: 2, members: 2, activities: 2, revenueRates: 1, costRates: 1 }) });
    expect(await listings(elsewhere, target, ann)).toEqual(await listings(h, ws, ann));
    for (const path of ['/api/projects', '/api/clients', '/api/tags', '/api/activities?from=2026-03-01T00:00:00Z']) {
      expect(await ok(as(elsewhere, target).get(path))).toEqual(await ok(as(h, ws).get(path)));
    }
    // The webhook comes disabled: its secret stayed behind.
    const [webhook] = Object.values(await ok(as(elsewhere, target).get('/api/webhooks'))) as any[];
    expect(webhook).toMatchObject({ url: 'https://hooks.example.com/timetrack', enabled: false, disabledReason: 'Imported without its signing secret: rotate the secret, then enable it.' });
  });

  it('imported into an empty workspace of the same deployment, new ids are given where they are taken and every reference follows them; imported again, everything is skipped', async () => {
    const { ws, ann } = await world(h);
    const archive = await exportOf(h, ws);
    const target = await h.workspace();
    const done = await importArchive(h, target, archive);
    expect(done).toMatchObject({ status: 'succeeded', errors: [], created: counts({ clients: 1, projects: 1, tasks: 1, tags: 1, users: 2, members: 2, activities: 2, revenueRates: 1, costRates: 1 }) });
    expect(await listings(h, target, ann)).toEqual(await listings(h, ws, ann));
    const [project] = Object.keys(await ok(as(h, target).get('/api/projects')));
    expect(Object.keys(await ok(as(h, ws).get('/api/projects')))).not.toContain(project);
    // Ann's saved report follows her and the project's new id.
    const annThere = (Object.values(await ok(as(h, target).get('/api/users'))) as any[]).find((user) => user.email === ann.email);
    const again = await importArchive(h, target, archive);
    expect(again).toMatchObject({ status: 'succeeded', created: counts() });
    expect(again.skipped).toBeGreaterThan(0);
    expect(await listings(h, target, ann)).toEqual(await listings(h, ws, ann));
    const reports = await h.app.db.selectFrom('reports').select(['user_id', 'definition']).where('organization_id', '=', target.organizationId).execute();
    expect(reports).toHaveLength(1);
    expect(reports[0].user_id).toBe(annThere.id);
    expect(JSON.parse(reports[0].definition).filters).toEqual([{ projectIds: [project] }]);
  });

  it('dryRun=true answers the counts and writes nothing; a file that is no export fails with file-unreadable', async () => {
    const { ws } = await world(h);
    const archive = await exportOf(h, ws);
    const target = await h.workspace();
    const dry = await importArchive(h, target, archive, { dryRun: 'true' });
    expect(dry).toMatchObject({ status: 'succeeded', dryRun: true, created: counts({ clients: 1, projects: 1, tasks: 1, tags: 1, users: 2, members: 2, activities: 2, revenueRates: 1, costRates: 1 }) });
    expect(await ok(as(h, target).get('/api/projects'))).toEqual({});
    const broken = await importArchive(h, target, Buffer.from('not a zip at all'));
    expect(broken).toMatchObject({ status: 'failed', errors: [{ row: 0, column: null, code: 'file-unreadable' }] });
  });
});
