import { beforeAll, expect, it } from 'vitest';
import { OPERATIONS, servedOperations, urlOf, type Call } from './operations.js';
import { dumpWorkspace, idsOf, seedWorld, withoutUsageStamps, type Dump, type RequestKind, type World } from './world.js';
import { as, describeEachStore, ok, type Harness } from '../support/harness.js';

/**
 * Workspace isolation: with two workspaces A and B seeded with every kind of record,
 * B's ids sent to A's host (by A's administrator, who may do the most) find nothing (404) and
 * change nothing, in paths, bodies and queries; and no answer at A ever holds one of B's ids.
 * "Nothing changes" is a full dump of each workspace's rows (every table: rows of its
 * organization_id, or reached through its users and their accounts) before and after.
 */

/** The path parameters that name records (year and week do not). */
const ID_PARAMS = /\{(?!year\}|week\})(\w+)\}/g;

/** The kind of request a route resolves (another kind's id is 404 for another reason). */
function requestKindOf(operation: string): RequestKind {
  if (operation.endsWith('/projects/members/role')) return 'roleChange';
  if (operation.endsWith('/projects/members')) return 'assignment';
  if (operation.endsWith('/projects/assign')) return 'projectAssignment';
  if (operation.endsWith('/timesheets/unlock')) return 'timesheetUnlock';
  if (operation.endsWith('/timesheets/approvals')) return 'timesheetApproval';
  if (operation.startsWith('PUT ')) return 'impersonation';
  return 'roleChange';
}

/** The id of `world`'s own record a path parameter names, for one operation. */
function idOf(world: World, param: string, operation: string): string {
  const ids: Record<string, string> = {
    apiKeyId: world.apiKeyId,
    projectId: world.projectId,
    memberId: world.memberId,
    activityId: world.activityId,
    revenueId: world.revenueRateId,
    userId: world.user.userId,
    costId: world.costRateId,
    subscriptionId: world.subscriptionId,
    geofenceId: world.geofenceId,
    tagId: world.tagId,
    reportId: world.reportId,
    lockId: world.lockId,
    sessionId: world.sessionId,
    webhookId: world.webhookId,
    deliveryId: world.webhookDeliveryId,
    requestId: world.requests[requestKindOf(operation)],
    clientId: world.clientId,
    taskId: world.taskId,
    importId: world.importId,
  };
  if (ids[param] === undefined) throw new Error(`no id for {${param}} (${operation})`);
  return ids[param];
}

/** Every way to mix A's and B's ids over the parameters, but all-A: B's alone, B's under A's parent, and so on. */
function mixes(params: string[]): boolean[][] {
  const result: boolean[][] = [];
  for (let mask = 1; mask < 2 ** params.length; mask++) result.push(params.map((_, i) => (mask & (1 << i)) !== 0));
  return result;
}

describeEachStore('Workspace isolation', (h: Harness) => {
  let a: World;
  let b: World;

  beforeAll(async () => {
    a = await seedWorld(h);
    b = await seedWorld(h);
  });

  // The mail worker updates outbox rows on its own schedule (delivery attempts): only the messages themselves count.
  const withoutDelivery = (dump: Dump): Dump => ({
    ...dump,
    outbox: (dump.outbox ?? []).map(({ last_error: _e, attempts: _a, locked_until: _l, sent_at: _s, ...row }) => row),
  });
  const dumps = async () => ({
    a: withoutDelivery(withoutUsageStamps(await dumpWorkspace(h, a.ws.organizationId))),
    b: withoutDelivery(await dumpWorkspace(h, b.ws.organizationId)),
  });

  it('the seeded workspaces hold rows in every table that belongs to a workspace', async () => {
    const dump = await dumpWorkspace(h, b.ws.organizationId);
    // Two tables belong to no workspace: the migrator's, and the domains of deleted workspaces (docs/rules.md §2).
    // import_entries belongs to one, but holds rows only while an import runs: they are the entries it stages
    // (docs/rules.md §6 Imports, "All or nothing"), deleted when it ends however it ends (src/areas/imports/run.ts,
    // and the runner's sweep of stalled imports). A workspace whose imports have all ended, as the seeded ones,
    // has none: that is checked here too.
    const transient = ['import_entries'];
    const empty = Object.entries(dump)
      .filter(([table, rows]) => rows.length === 0 && table !== 'timetrack_migrations' && table !== 'retired_domains' && !transient.includes(table))
      .map(([table]) => table);
    expect(empty).toEqual([]);
    for (const table of transient) expect(dump[table], table).toEqual([]);
  });

  it('every id-taking route at A\'s host with B\'s ids (alone or under A\'s) is 404 and changes nothing in A or B', async () => {
    const operations = (await servedOperations(h)).filter((operation) => operation.match(ID_PARAMS));
    expect(operations.length).toBeGreaterThanOrEqual(40);
    // Valid requests for A first (destructive ones make their fresh targets now, before the dumps).
    const calls: [string, Call][] = [];
    for (const operation of operations) calls.push([operation, await OPERATIONS[operation](h, a)]);
    const before = await dumps();
    const wrong: string[] = [];
    let sent = 0;
    for (const [operation, call] of calls) {
      const [method, path] = operation.split(' ');
      const params = [...path.matchAll(ID_PARAMS)].map((match) => match[1]);
      for (const mix of mixes(params)) {
        const values = { ...call.params };
        params.forEach((param, i) => {
          values[param] = mix[i] ? idOf(b, param, operation) : values[param];
        });
        const url = urlOf(path, values);
        const res = await h.call(method, url, { host: a.ws.host, token: a.admin.token, body: call.body, query: call.query });
        sent++;
        if (res.status !== 404 || res.body?.code !== 'not-found') wrong.push(`${method} ${url}: ${res.status} ${res.text}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(sent).toBeGreaterThan(operations.length);
    const after = await dumps();
    expect(after.b).toEqual(before.b);
    expect(after.a).toEqual(before.a);
    console.log(`[${h.store}] isolation: ${operations.length} id-taking operations, ${sent} calls with B's ids at A, all 404, 0 rows changed`);
  });

  it('B\'s ids in request bodies at A are 422 and store nothing', async () => {
    const admin = as(h, a.ws, a.admin);
    const owner = as(h, a.ws, a.user);
    const projectAssignment = (await ok(owner.post('/api/requests/projects/request-assignment'))).id;
    const report = { name: 'Cross', period: 'custom', start: '2026-07-01T00:00:00Z', end: '2026-08-01T00:00:00Z', dimensions: ['project'], metrics: ['time'] };
    const cases: [Promise<any>, string][] = [
      [admin.post('/api/activities', { name: 'x', startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00Z', projectId: b.projectId }), '/body/projectId'],
      [owner.put(`/api/activities/${a.activityId}`, { projectId: b.projectId }), '/body/projectId'],
      [admin.post(`/api/projects/${a.projectId}/members`, { userId: b.user.userId }), '/body/userId'],
      [admin.post('/api/timesheets/lock', { userId: b.user.userId, year: 2021, week: 5 }), '/body/userId'],
      [admin.post(`/api/requests/projects/${a.projectId}/members`, { userIds: [a.user.userId, b.user.userId] }), '/body/userIds/1'],
      [admin.put(`/api/requests/${projectAssignment}/projects/assign`, { status: 'RESOLVED', projectIds: [a.projectId, b.projectId] }), '/body/projectIds/1'],
      [owner.post('/api/reports', { ...report, selectedProjects: [b.projectId] }), '/body/selectedProjects'],
      [owner.post('/api/reports', { ...report, selectedProjectMembers: [b.memberId] }), '/body/selectedProjectMembers'],
      [owner.put(`/api/reports/${a.reportId}`, { selectedProjects: [a.projectId, b.projectId] }), '/body/selectedProjects'],
      [owner.put(`/api/reports/${a.reportId}`, { selectedProjectMembers: [b.memberId] }), '/body/selectedProjectMembers'],
      [admin.post('/api/geofences', { latitude: 1, longitude: 1, radius: 1, projectId: b.projectId }), '/body/projectId'],
      [admin.put(`/api/geofences/${a.geofenceId}`, { projectId: b.projectId }), '/body/projectId'],
    ];
    const before = await dumps();
    const wrong: string[] = [];
    for (const [pending, pointer] of cases) {
      const res = await pending;
      const pointers: string[] = (res.body?.errors ?? []).map((e: { pointer: string }) => e.pointer);
      if (res.status !== 422 || res.body.code !== 'validation' || !pointers.some((p) => p.startsWith(pointer))) {
        wrong.push(`${pointer}: ${res.status} ${res.text}`);
      }
    }
    expect(wrong).toEqual([]);
    const after = await dumps();
    expect(after.b).toEqual(before.b);
    expect(after.a).toEqual(before.a);
  });

  it('B\'s ids as query filters at A find nothing', async () => {
    const admin = as(h, a.ws, a.admin);
    for (const query of [{ userId: b.user.userId }, { projectId: b.projectId }] as Record<string, string>[]) {
      const res = await admin.get('/api/activities', undefined, { query });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
    const locks = await admin.get('/api/timesheets/locks', undefined, { query: { userId: b.user.userId } });
    expect(locks.status).toBe(200);
    expect(locks.body).toEqual({});
  });

  it('no answer at A, for any caller of A, holds one of B\'s ids (0 cross-workspace reads)', async () => {
    const reads = (await servedOperations(h)).filter((operation) => operation.startsWith('GET '));
    const bIds = idsOf(b);
    const leaks: string[] = [];
    let checked = 0;
    for (const operation of reads) {
      const [method, path] = operation.split(' ');
      const call = await OPERATIONS[operation](h, a);
      for (const user of [a.admin, a.user, a.projectAdmin, a.outsider]) {
        const res = await h.call(method, urlOf(path, call.params), { host: a.ws.host, token: user.token, query: call.query });
        checked++;
        const leaked = bIds.filter((id) => res.text.includes(id));
        if (leaked.length > 0) leaks.push(`${operation} as ${user.userId}: ${leaked.join(', ')}`);
      }
    }
    expect(leaks).toEqual([]);
    console.log(`[${h.store}] isolation: ${checked} reads at A checked, 0 hold B's ids`);
  });

  it('B\'s tokens of every kind are 401 at A\'s host', async () => {
    for (const token of [b.admin.token, b.user.token, b.sessionToken]) {
      const res = await h.call('GET', '/api/auth', { host: a.ws.host, token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    }
  });
});
