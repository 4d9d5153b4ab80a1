import { beforeAll, expect, it } from 'vitest';
import { AUTHORIZATION_MATRIX, type Caller } from './authorization-matrix.js';
import { OPERATIONS, servedOperations, urlOf } from './operations.js';
import { changedRows, dumpAll, importsEnded, next, seedPeople, seedWorld, type World } from './world.js';
import { as, describeEachStore, ok, type CallOptions, type Harness, type Response, type TestUser } from '../support/harness.js';

/**
 * Mass assignment (docs/rules.md §4: server-owned fields cannot be set by a client).
 * Every write route (each POST and PUT of the served document), as every caller the authorization
 * matrix lets through, is sent a valid body plus every server-owned field it does not take, set to
 * recognisable values: forged ids and timestamps, another user's id, another workspace's ids,
 * status, role, archived, pinned, plan, onboarding, email, key material… Then none of them is stored:
 * not in the answer, not through GET, and not in any row the call added or changed (a full dump of
 * the store before and after each call).
 *
 * A route whose body is no JSON (an import's CSV file) takes its fields from the query string: there
 * the server-owned fields are forged, as query parameters beside the ones it declares.
 */

const FORGED_TIME = '2001-02-03T04:05:06.000Z';
const ONBOARDING_DONE = Object.fromEntries(
  ['assignMembers', 'inviteMembers', 'organization', 'preferences', 'projects'].map((step) => [step, { done: true, viewed: true }]),
);

/** The server-owned fields, set to values that must never be stored. */
function serverOwned(victim: TestUser, other: World): Record<string, unknown> {
  return {
    id: 'forged-id',
    organizationId: other.ws.organizationId,
    organization_id: other.ws.organizationId,
    userId: victim.userId,
    user_id: victim.userId,
    accountId: 'forged-account',
    projectId: other.projectId,
    memberId: other.memberId,
    createdAt: FORGED_TIME,
    created_at: FORGED_TIME,
    updatedAt: FORGED_TIME,
    assignedBy: victim.userId,
    createdBy: victim.userId,
    resolvedBy: victim.userId,
    resolvedAt: FORGED_TIME,
    lastUsedAt: FORGED_TIME,
    expiresAt: FORGED_TIME,
    usedAt: FORGED_TIME,
    joinedAt: FORGED_TIME,
    status: 'RESOLVED',
    type: 'impersonation',
    role: 'Administrator',
    archived: true,
    pinned: true,
    plan: 'forged-plan',
    onboarding: ONBOARDING_DONE,
    domain: 'forged-domain',
    email: 'forged@example.com',
    key: 'forged-key',
    prefix: 'forged-prefix',
    tokenHash: 'forged-hash',
    token_hash: 'forged-hash',
    projectIds: [other.projectId],
    payload: { reason: 'forged' },
  };
}

/** The callers tried on each write route, least privileged first: those the matrix lets through (a 2xx cell). */
const WRITERS: Caller[] = ['anon', 'user', 'pAdm', 'admin'];
const letThrough = (status: number) => status >= 200 && status < 300;

/** A forged value as query text: strings as they are, lists item by item, anything else as JSON. */
const queryValue = (value: unknown): string | string[] =>
  typeof value === 'string' ? value : Array.isArray(value) ? value.map((item) => queryValue(item) as string) : JSON.stringify(value);

/**
 * Work a write leaves running after its answer (an import runs in the background), awaited before the
 * store is dumped again: every row it writes is checked as the call's own.
 */
const BACKGROUND: Record<string, (h: Harness, world: World) => Promise<void>> = {
  'POST /imports': (h, world) => importsEnded(h, world.ws),
};

interface Context {
  world: World;
  caller: TestUser | null;
  res: Response;
  changed: Record<string, Record<string, unknown>[]>;
  call: (method: string, url: string) => Promise<Response>;
}

const PENDING_CREATED = (c: Context) => {
  expect(c.res.body).toMatchObject({ status: 'PENDING', createdBy: c.caller!.userId, resolvedAt: null, resolvedBy: null });
  expect(c.changed.requests.map((row) => row.status)).toEqual(['PENDING']);
};
const RESOLVED_BY_CALLER = (c: Context) => {
  expect(c.res.body.resolvedBy).toBe(c.caller!.userId);
  expect(c.res.body.resolvedAt).not.toBe(FORGED_TIME);
};

/** What each route must show beyond "no forged value anywhere". */
const CHECKS: Record<string, (c: Context) => Promise<void> | void> = {
  'POST /projects': (c) => expect(c.res.body.archived).toBe(false),
  'POST /projects/{projectId}/members': (c) => {
    expect(c.res.body).toMatchObject({ archived: false, role: 'User', assignedBy: c.caller!.userId, projectId: c.world.projectId });
  },
  'POST /activities': (c) => expect(c.res.body.userId).toBe(c.caller!.userId),
  'PUT /activities/{activityId}': (c) => expect(c.res.body.userId).toBe(c.world.user.userId),
  'POST /reports': (c) => expect(c.res.body).toMatchObject({ userId: c.caller!.userId, pinned: false }),
  'PUT /reports/{reportId}': (c) => expect(c.res.body.userId).toBe(c.caller!.userId),
  'POST /projects/{projectId}/members/{memberId}/rates/revenue': (c) => {
    expect(c.res.body).toMatchObject({ projectId: c.world.projectId, memberId: c.world.memberId });
  },
  'POST /users/{userId}/rates/cost': (c) => expect(c.res.body.userId).toBe(c.world.user.userId),
  'POST /users': (c) => expect(c.res.body).toMatchObject({ archived: false, role: 'User' }),
  'PUT /users/{userId}': (c) => {
    expect(c.res.body).toMatchObject({ email: c.world.user.email, role: 'User', archived: false });
  },
  'PUT /organization': async (c) => {
    const organization = (await c.call('GET', '/api/organization')).body;
    expect(organization.id).toBe(c.world.ws.organizationId);
    expect(organization.plan).toBe('free');
    expect(organization.onboarding).toEqual(Object.fromEntries(Object.keys(ONBOARDING_DONE).map((k) => [k, { done: false, viewed: false }])));
    expect(organization.lockingTimesheets).toMatchObject({ timeZone: null, year: null, week: null });
  },
  'PUT /timesheets/auto-lock': (c) => expect(c.res.body).toMatchObject({ id: c.world.ws.organizationId, plan: 'free' }),
  'POST /timesheets/lock': (c) => expect(c.res.body.userId).toBe(c.world.user.userId),
  'PUT /subscriptions/{subscriptionId}': async (c) => {
    const stored = (await c.call('GET', '/api/subscriptions')).body.find((s: { id: string }) => s.id === c.world.subscriptionId);
    expect(stored).toEqual({ id: c.world.subscriptionId, status: 'active', plan: 'free', quantity: 5 });
  },
  'POST /api-keys': (c) => expect(c.changed.api_keys[0]).toMatchObject({ user_id: c.caller!.userId, organization_id: c.world.ws.organizationId }),
  'POST /receipt': (c) => expect(c.changed.receipts[0]).toMatchObject({ user_id: c.caller!.userId, organization_id: c.world.ws.organizationId }),
  'POST /auth/one-time': (c) => {
    // The session acts as the administrator who resolved the request, whatever the body says.
    expect(c.res.body.email).toBe(c.world.admin.email);
    expect(c.changed.sessions[0]).toMatchObject({ user_id: c.world.admin.userId, organization_id: c.world.ws.organizationId });
  },
  'POST /requests/projects/{projectId}/members/{memberId}/role': PENDING_CREATED,
  'POST /requests/projects/{projectId}/members': PENDING_CREATED,
  'POST /requests/projects/request-assignment': PENDING_CREATED,
  'POST /requests/timesheets/{year}/{week}/unlock': PENDING_CREATED,
  'POST /requests/timesheets/{year}/{week}/approvals': PENDING_CREATED,
  'PUT /requests/{requestId}': RESOLVED_BY_CALLER,
  'PUT /requests/{requestId}/projects/members/role': RESOLVED_BY_CALLER,
  'PUT /requests/{requestId}/projects/members': RESOLVED_BY_CALLER,
  'PUT /requests/{requestId}/projects/assign': (c) => {
    RESOLVED_BY_CALLER(c);
    const payload = JSON.parse(String(c.changed.requests[0].payload));
    expect(payload.projectIds).toEqual([c.world.projectId]);
  },
  'PUT /requests/{requestId}/timesheets/unlock': RESOLVED_BY_CALLER,
  'PUT /requests/{requestId}/timesheets/approvals': RESOLVED_BY_CALLER,
  'POST /tags': (c) => expect(c.res.body.archived).toBe(false),
  'POST /projects/{projectId}/tasks': (c) => expect(c.res.body).toMatchObject({ archived: false, projectId: c.world.projectId }),
  'PUT /projects/{projectId}/tasks/{taskId}': (c) => expect(c.res.body.projectId).toBe(c.world.projectId),
  'POST /organization/rename': (c) => expect(c.changed.organizations.map((row) => row.id)).toEqual([c.world.ws.organizationId]),
  'POST /imports': async (c) => {
    expect(c.res.body).toMatchObject({ source: 'toggl', status: 'queued', dryRun: false, mode: 'all', finishedAt: null });
    expect(c.changed.imports).toHaveLength(1);
    expect(c.changed.imports[0]).toMatchObject({ id: c.res.body.id, organization_id: c.world.ws.organizationId, created_by: c.caller!.userId });
    // The import ran, and brought in its one entry: the user's (the file's email), as the file says.
    const ended = (await c.call('GET', `/api/imports/${c.res.body.id}`)).body;
    expect(ended).toMatchObject({ status: 'succeeded', errorCount: 0, created: { activities: 1, users: 0 } });
    expect(c.changed.activities.map((row) => row.user_id)).toEqual([c.world.user.userId]);
    expect(c.changed.import_keys).toMatchObject([{ import_id: c.res.body.id, organization_id: c.world.ws.organizationId }]);
    expect(c.changed.import_entries).toBeUndefined();
  },
};

/** Where the written record is read back: the same path for a PUT, the created record (or the list) for a POST. */
function readBack(operation: string, operations: Set<string>, params: Record<string, string>, body: any): string | null {
  const [method, path] = operation.split(' ');
  const special: Record<string, string> = {
    'POST /api-keys': '/api/api-keys',
    'POST /timesheets/lock': '/api/timesheets/locks',
    'PUT /timesheets/auto-lock': '/api/organization',
    'PUT /subscriptions/{subscriptionId}': '/api/subscriptions',
    'POST /auth/one-time': '/api/auth',
  };
  if (special[operation]) return special[operation];
  if (path.startsWith('/requests')) return body?.id ? `/api/requests/${body.id}` : null;
  if (method === 'PUT' && operations.has(`GET ${path}`)) return urlOf(path, params);
  if (method === 'POST') {
    const single = [...operations].find((op) => new RegExp(`^GET ${path.replace(/[{}]/g, '\\$&')}/\\{\\w+\\}$`).test(op));
    if (single && body?.id) return urlOf(single.slice(4), { ...params, [/\{(\w+)\}$/.exec(single)![1]]: body.id });
    if (operations.has(`GET ${path}`)) return urlOf(path, params);
  }
  return null;
}

describeEachStore('Mass assignment', (h: Harness) => {
  let a: World;
  let other: World;
  let victim: TestUser;

  beforeAll(async () => {
    a = await seedWorld(h);
    other = await seedWorld(h);
    // A user of A who never acts: their id in a write body must never end up anywhere.
    victim = await h.user(a.ws);
  });

  it('no write route stores a server-owned field, for any caller allowed to write', async () => {
    const served = await servedOperations(h);
    const operations = new Set(served);
    const writes = served.filter((operation) => /^(POST|PUT) /.test(operation));
    expect(writes.length).toBe(64);
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    const sentinels = ['forged', FORGED_TIME, '2001-02-03', victim.userId, other.ws.organizationId, other.projectId, other.memberId];
    const failures: string[] = [];
    let calls = 0;

    for (const operation of writes) {
      const [method, path] = operation.split(' ');
      const row = AUTHORIZATION_MATRIX.find((r) => r.operation === operation)!;
      const callers = WRITERS.filter((caller) => letThrough(row.expected[caller]));
      expect(callers.length, operation).toBeGreaterThan(0);
      const documented = doc.paths[path][method.toLowerCase()];
      const named = documented.requestBody?.content?.['application/json']?.schema;
      const schema = named?.$ref ? doc.components.schemas[named.$ref.split('/').pop()] : named;
      const taken = new Set(Object.keys(schema?.properties ?? {}));
      const takenQuery = new Set<string>((documented.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name));
      for (const caller of callers) {
        const world = operation === 'POST /organization/rename' ? ((await seedPeople(h)) as World) : a;
        const people: Partial<Record<Caller, TestUser | null>> = { anon: null, user: world.user, pAdm: world.projectAdmin, admin: world.admin };
        const user = people[caller] ?? null;
        const built = await OPERATIONS[operation](h, world);
        const send = (m: string, url: string, token = user?.token ?? null, options: CallOptions = {}) =>
          h.call(m, url, { host: world.ws.host, token, ...options });
        let request: CallOptions;
        if (built.payload === undefined) {
          const forged = Object.fromEntries(Object.entries(serverOwned(victim, other)).filter(([field]) => !taken.has(field)));
          const body: Record<string, any> = { ...forged, ...(built.body as object) };
          if (operation === 'PUT /organization') {
            body.lockingTimesheets = { unlockDuration: 30, year: 1999, week: 7, timeZone: 'Pacific/Kiritimati' };
          }
          request = { body, query: built.query };
        } else {
          // No JSON body: the server-owned fields go where this route reads a client's fields, its query string.
          const forged = Object.entries(serverOwned(victim, other)).filter(([field]) => !takenQuery.has(field));
          const query = { ...Object.fromEntries(forged.map(([field, value]) => [field, queryValue(value)])), ...built.query };
          request = { payload: built.payload, headers: built.headers, query };
        }
        const before = await dumpAll(h);
        const res = await send(method, urlOf(path, built.params), user?.token ?? null, request);
        calls++;
        const where = `${operation} as ${caller}`;
        if (res.status !== row.expected[caller]) {
          failures.push(`${where}: ${res.status} ${res.text}`);
          continue;
        }
        await BACKGROUND[operation]?.(h, world);
        const changed = changedRows(before, await dumpAll(h));
        const changedText = JSON.stringify(changed);
        for (const sentinel of sentinels) {
          if (changedText.includes(sentinel)) failures.push(`${where}: stored ${sentinel}: ${changedText}`);
          if (res.text.includes(sentinel)) failures.push(`${where}: answered ${sentinel}: ${res.text}`);
        }
        for (const [table, rows] of Object.entries(changed)) {
          for (const changedRow of rows) {
            // A person's session belongs to the account, and a workspace list is mail outside any workspace (docs/rules.md §7): no workspace.
            const accountWide = changedRow.organization_id === null && (table === 'sessions' || table === 'outbox');
            if ('organization_id' in changedRow && changedRow.organization_id !== world.ws.organizationId && !accountWide) {
              failures.push(`${where}: wrote ${table} of organization ${String(changedRow.organization_id)}`);
            }
          }
        }
        const readUrl = readBack(operation, operations, built.params ?? {}, res.body);
        if (readUrl) {
          const readToken = operation === 'POST /auth/one-time' ? res.body.token : user?.token ?? null;
          const read = await send('GET', readUrl, readToken);
          if (read.status !== 200) failures.push(`${where}: reading back ${readUrl}: ${read.status}`);
          for (const sentinel of sentinels) if (read.text.includes(sentinel)) failures.push(`${where}: ${readUrl} shows ${sentinel}`);
        }
        const context: Context = { world, caller: user, res, changed, call: (m, url) => send(m, url, world.admin.token) };
        try {
          await CHECKS[operation]?.(context);
        } catch (error) {
          failures.push(`${where}: ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    console.log(`[${h.store}] mass assignment: ${writes.length} write operations, ${calls} calls with server-owned fields, 0 stored`);
  }, 120_000);

  it('a User sending role or archived for their own profile is 403 and changes nothing', async () => {
    const self = as(h, a.ws, a.user);
    for (const body of [{ name: 'Me', role: 'Administrator' }, { name: 'Me', archived: false }, { role: 'User' }]) {
      const res = await self.put(`/api/users/${a.user.userId}`, body);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await self.get(`/api/users/${a.user.userId}`)).body).toMatchObject({ role: 'User', archived: false });
    expect((await h.call('GET', '/api/auth', { host: a.ws.host, token: a.user.token })).status).toBe(200);
  });

  it('a project admin may set a member\'s project role, never the workspace role of its user', async () => {
    const target = await h.user(a.ws);
    const pAdm = as(h, a.ws, a.projectAdmin);
    const member = await ok(pAdm.post(`/api/projects/${a.projectId}/members`, { userId: target.userId, role: 'Administrator' }));
    expect(member.role).toBe('Administrator');
    expect((await pAdm.get(`/api/users/${target.userId}`)).body.role).toBe('User');
    const changed = await ok(pAdm.put(`/api/projects/${a.projectId}/members/${member.id}`, { title: `T${next()}`, userId: victim.userId, projectId: other.projectId }));
    expect(changed).toMatchObject({ id: member.id, userId: target.userId, projectId: a.projectId });
  });
},
// The answers about addresses are held to a minimum time (docs/rules.md §7): not what this suite measures.
{ enumerationFloorMs: 0 });
