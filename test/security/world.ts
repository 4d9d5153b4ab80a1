import { sql } from 'kysely';
import { ACTIVITY_DAY, make, REQUEST_KINDS, type RequestKind } from '../support/factories/index.js';
import { as, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { deliverWebhooks, hashToken, insertOidcState, listMessages } from '../support/src.js';

/**
 * A workspace seeded with one record of every kind, made with the factories of test/support (the
 * API where a client could make the record), and the people the security suites act as:
 *
 * - `admin`: the workspace Administrator (who created the project, so also its project admin);
 * - `user`: a plain User, member (role User) of the project, and the owner of the records that have
 *   an owner (activity, report, cost rate, requests, API key, preferences, timesheet lock);
 * - `projectAdmin`: a workspace User who is a member of the project with role Administrator;
 * - `outsider`: a workspace User who is in no project and owns nothing (but has two-factor authentication on).
 *
 * It also holds one ended import (a Toggl file of one entry of the user on the project, imported by
 * the admin through POST /imports): its record and the key of the row it brought in.
 */
export interface World {
  ws: TestWorkspace;
  admin: TestUser;
  user: TestUser;
  projectAdmin: TestUser;
  outsider: TestUser;
  /** The project: admin and projectAdmin are its admins, user a plain member. */
  projectId: string;
  /** The user's membership of the project. */
  memberId: string;
  projectAdminMemberId: string;
  /** The user's activity on the project. */
  activityId: string;
  /** A revenue rate of the user's membership. */
  revenueRateId: string;
  /** A cost rate of the user. */
  costRateId: string;
  /** A report of the user. */
  reportId: string;
  /** PENDING requests, one of each kind: made by the user (impersonation: by the CLI). */
  requests: Record<RequestKind, string>;
  /** The user's timesheet lock of 2020-W10. */
  lockId: string;
  geofenceId: string;
  /** A tag, made by the user (every user may create one). */
  tagId: string;
  /** A webhook (to https://hooks.example.com: never reached, its one attempt refused by a test resolver) and its first ping's delivery. */
  webhookId: string;
  webhookDeliveryId: string;
  /** A stored subscription (its id is the provider's: unique to this world). */
  subscriptionId: string;
  /** A second API key of the user, made with POST /api-keys. */
  apiKeyId: string;
  /** The project's client. */
  clientId: string;
  /** A task of the project, made by the admin. */
  taskId: string;
  /** An invited user (with an invitation in the outbox). */
  invitedUserId: string;
  /** An ended (succeeded) import, started by the admin: one entry of the user on the project. */
  importId: string;
  /** The session token redeemed from a resolved impersonation request (acts as admin, one hour). */
  sessionToken: string;
  /** That session's id (DELETE /auth/sessions/{sessionId}). */
  sessionId: string;
}

export { REQUEST_KINDS, type RequestKind };

/** The day every seeded activity is on (2026-W27), far from the seeded lock's week (2020-W10). */
export { ACTIVITY_DAY };

let sequence = 0;
/** A number no other call in this process has had: for unique names, periods, weeks and ids. */
export const next = () => ++sequence;

/** A workspace with its four people only (no records): for suites that destroy or rename the workspace. */
export async function seedPeople(h: Harness): Promise<Pick<World, 'ws' | 'admin' | 'user' | 'projectAdmin' | 'outsider'>> {
  const ws = await h.workspace();
  return {
    ws,
    admin: ws.admin,
    user: await h.user(ws),
    projectAdmin: await h.user(ws),
    outsider: await h.user(ws),
  };
}

/** A rate period no other one in this process overlaps: one day in the 2100s. */
export function uniquePeriod(): { from: string; to: string } {
  const day = new Date(Date.UTC(2100, 0, 1) + next() * 86_400_000);
  return { from: day.toISOString(), to: new Date(day.getTime() + 86_400_000).toISOString() };
}

/** An ISO week no other call in this process has had (years 2001–2019, weeks 1–52). */
export function uniqueWeek(): { year: number; week: number } {
  const n = next();
  return { year: 2001 + (Math.floor(n / 52) % 19), week: 1 + (n % 52) };
}

/**
 * A Toggl Track CSV export of one entry of the person with this email (on the project named, if any),
 * on a day apart from every seeded one: CRLF lines, as the tool writes them.
 */
export function togglFile(email: string, description: string, project = ''): string {
  const lines = ['Email,Project,Description,Start date,Start time,End date,End time', `${email},${project},${description},2026-05-04,09:00:00,2026-05-04,10:00:00`];
  return `${lines.join('\r\n')}\r\n`;
}

/** Waits until no import of the workspace is queued or running (one import at a time per workspace). */
export async function importsEnded(h: Harness, ws: TestWorkspace): Promise<void> {
  const until = Date.now() + 20_000;
  for (;;) {
    const imports = Object.values(await ok<Record<string, { id: string; status: string }>>(as(h, ws).get('/api/imports')));
    const unfinished = imports.filter((found) => found.status === 'queued' || found.status === 'running');
    if (unfinished.length === 0) return;
    if (Date.now() > until) throw new Error(`imports of ${ws.domain} still unfinished: ${unfinished.map((found) => `${found.id} ${found.status}`).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The token of the one-time sign-in link a resolved impersonation request sends (read from the outbox). */
export async function oneTimeToken(h: Harness, ws: TestWorkspace, resolver: TestUser = ws.admin): Promise<string> {
  const before = new Set((await listMessages(h.app.db, { organizationId: ws.organizationId })).map((m) => m.id));
  const request = await make.request(h, ws, { kind: 'impersonation', reason: 'security suite' });
  await ok(as(h, ws, resolver).put(`/api/requests/${request.id}`, { status: 'RESOLVED' }));
  const message = (await listMessages(h.app.db, { organizationId: ws.organizationId })).find((m) => !before.has(m.id) && m.kind === 'supportSignIn');
  return /tto_[A-Za-z0-9_-]{43}/.exec(message!.body)![0];
}

/** Seeds a workspace with every kind of record (see World). */
export async function seedWorld(h: Harness): Promise<World> {
  const people = await seedPeople(h);
  const { ws, admin, user, projectAdmin } = people;
  const asAdmin = as(h, ws, admin);
  const asUser = as(h, ws, user);
  const n = next();

  const client = await make.client(h, ws, { name: `Client ${n}` });
  const project = await make.project(h, ws, { name: `Project ${n}`, billable: true, clientId: client.id });
  const member = await make.member(h, ws, { project, user });
  const projectAdminMember = await make.member(h, ws, { project, user: projectAdmin, role: 'Administrator' });
  const activity = await make.activity(h, ws, {
    owner: user,
    name: 'Seeded work',
    startedAt: `${ACTIVITY_DAY}T09:00:00Z`,
    endedAt: `${ACTIVITY_DAY}T10:00:00Z`,
    project,
  });
  // Over a day long: it records the user's longest activity (activity_length_bounds, GET /activities' look-back).
  await make.activity(h, ws, {
    owner: user,
    name: 'Seeded long work',
    startedAt: `${ACTIVITY_DAY}T18:00:00Z`,
    endedAt: new Date(Date.parse(`${ACTIVITY_DAY}T18:00:00Z`) + 2 * 86_400_000).toISOString(),
    project,
  });
  const revenueRate = await make.revenueRate(h, ws, {
    project,
    member,
    currency: 'EUR',
    from: '2026-01-01T00:00:00Z',
    to: '2027-01-01T00:00:00Z',
    taxRate: 19,
    value: 100,
  });
  const costRate = await make.costRate(h, ws, {
    user,
    currency: 'EUR',
    from: '2026-01-01T00:00:00Z',
    to: '2027-01-01T00:00:00Z',
    taxRate: 0,
    value: 40,
  });
  const report = await make.report(h, ws, {
    owner: user,
    name: `Report ${n}`,
    period: 'custom',
    start: '2026-07-01T00:00:00Z',
    end: '2026-08-01T00:00:00Z',
    dimensions: ['project'],
    metrics: ['time'],
    selectedProjects: [project.id],
    selectedProjectMembers: [member.id],
  });
  const requests: Record<RequestKind, string> = {
    roleChange: (await make.request(h, ws, { kind: 'roleChange', by: user, project, member, role: 'User' })).id,
    assignment: (await make.request(h, ws, { kind: 'assignment', by: user, project, users: [user] })).id,
    projectAssignment: (await make.request(h, ws, { kind: 'projectAssignment', by: user })).id,
    impersonation: (await make.request(h, ws, { kind: 'impersonation', reason: 'seeded' })).id,
    timesheetUnlock: (await make.request(h, ws, { kind: 'timesheetUnlock', by: user, year: 2020, week: 10 })).id,
    timesheetApproval: (await make.request(h, ws, { kind: 'timesheetApproval', by: user, year: 2020, week: 10 })).id,
  };
  const lock = await make.lock(h, ws, { user, year: 2020, week: 10 });
  const geofence = await ok(
    asAdmin.post('/api/geofences', { latitude: 52.5, longitude: 13.4, radius: 150, name: 'Office', projectId: project.id }),
  );
  const tag = await ok(asUser.post('/api/tags', { name: `Tag ${n}` }));
  const task = await make.task(h, ws, { project, name: `Task ${n}` });
  // The seeded activity carries the task and the tag (activities.task_id, activity_tags).
  await ok(asUser.put(`/api/activities/${activity.id}`, { taskId: task.id, tagIds: [tag.id] }));
  const webhook = await ok(asAdmin.post('/api/webhooks', { url: `https://hooks.example.com/${ws.domain}`, events: ['*'] }));
  const [webhookDelivery] = await ok(asAdmin.get(`/api/webhooks/${webhook.id}/deliveries`));
  // One attempt of the ping, refused before any connection: the host resolves to a private address.
  await deliverWebhooks(h.app, { resolver: async () => [{ address: '10.0.0.1', family: 4 }] });
  const subscriptionId = `sub_${ws.domain}`;
  await make.subscription(h, ws, { id: subscriptionId, status: 'active', plan: 'free', quantity: 3 });
  await make.billingTransaction(h, ws, { id: `txn_${ws.domain}`, amount: 0, currency: 'EUR', status: 'paid' });
  await ok(asAdmin.post('/api/receipt', { receiptBase64: 'c2VlZGVk' }));
  const apiKey = await ok(asUser.post('/api/api-keys', { name: 'seeded' }));
  await ok(asUser.put(`/api/users/${user.userId}/preferences`, { locale: 'de-DE', notifications: { activityCreated: { email: false } } }));
  const invited = await ok(asAdmin.post('/api/users', { email: `invited-${ws.domain}@example.com`, name: 'Invited' }));
  await ok(asAdmin.post('/api/timesheets/reminder', { reason: 'seeded' }));
  const session = await ok(h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token: await oneTimeToken(h, ws) } }));
  // Sign-in: the outsider's account has 2FA on and a sign-in waiting for its code; the workspace invites a domain.
  await make.twoFactor(h, ws, people.outsider);
  await make.signInChallenge(h, ws, people.outsider);
  await ok(asAdmin.put('/api/auth/settings', { invitationDomains: ['example.com'] }));
  // An import of one entry, ended before the world is handed out (imports, import_keys; its staged rows are gone).
  const started = await ok(
    h.call('POST', '/api/imports', {
      host: ws.host,
      token: admin.token,
      query: { source: 'toggl' },
      payload: togglFile(user.email, `Imported work ${n}`, project.name),
      headers: { 'content-type': 'text/csv' },
    }),
    202,
  );
  await importsEnded(h, ws);
  const imported = await ok(asAdmin.get(`/api/imports/${started.id}`));
  if (imported.status !== 'succeeded' || imported.created.activities !== 1) throw new Error(`the seeded import did not import its entry: ${JSON.stringify(imported)}`);
  // A single sign-on begun at the workspace (as GET /auth/oidc/start stores one; these suites configure no provider).
  const now = new Date().toISOString();
  await insertOidcState(h.app.db, {
    stateHash: `seeded-${ws.domain}`,
    organizationId: ws.organizationId,
    sealedVerifier: 'sealed',
    nonce: 'nonce',
    browserHash: hashToken(`browser-${ws.domain}`),
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    now,
  });

  return {
    ...people,
    projectId: project.id,
    memberId: member.id,
    projectAdminMemberId: projectAdminMember.id,
    activityId: activity.id,
    revenueRateId: revenueRate.id,
    costRateId: costRate.id,
    reportId: report.id,
    requests,
    lockId: lock.id,
    geofenceId: geofence.id,
    tagId: tag.id,
    webhookId: webhook.id,
    webhookDeliveryId: webhookDelivery.id,
    subscriptionId,
    apiKeyId: apiKey.id,
    invitedUserId: invited.id,
    clientId: client.id,
    taskId: task.id,
    importId: started.id,
    sessionToken: session.token,
    sessionId: (await h.app.db.selectFrom('sessions').select('id').where('token_hash', '=', hashToken(session.token)).executeTakeFirstOrThrow()).id,
  };
}

/** Every id of the world's own records and people: none of them may show up in another workspace's answers. */
export function idsOf(world: Partial<World> & Pick<World, 'ws'>): string[] {
  const ids: (string | undefined)[] = [
    world.ws.organizationId,
    world.admin?.userId,
    world.user?.userId,
    world.projectAdmin?.userId,
    world.outsider?.userId,
    world.projectId,
    world.memberId,
    world.projectAdminMemberId,
    world.activityId,
    world.revenueRateId,
    world.costRateId,
    world.reportId,
    ...Object.values(world.requests ?? {}),
    world.lockId,
    world.geofenceId,
    world.tagId,
    world.webhookId,
    world.webhookDeliveryId,
    world.subscriptionId,
    world.apiKeyId,
    world.invitedUserId,
    world.clientId,
    world.taskId,
    world.importId,
  ];
  return ids.filter((id): id is string => id !== undefined);
}

/* Dumps of the store */

export type Dump = Record<string, Record<string, unknown>[]>;

/** The names of every table of the store (the migrator's own included). */
export async function tableNames(h: Harness): Promise<string[]> {
  const db = h.app.db;
  const rows =
    h.store === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return rows.rows.map((row) => row.name).sort();
}

/** Every row of every table, every column, in a stable order. */
export async function dumpAll(h: Harness): Promise<Dump> {
  const dump: Dump = {};
  for (const table of await tableNames(h)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(h.app.db);
    dump[table] = sortRows(rows);
  }
  return dump;
}

/**
 * The rows that belong to one workspace, from every table: those with its organization_id, and those
 * reached through its users (user_id) or their accounts (account_id), and its organizations row.
 */
export async function dumpWorkspace(h: Harness, organizationId: string): Promise<Dump> {
  const all = await dumpAll(h);
  const users = (all.users ?? []).filter((row) => row.organization_id === organizationId);
  const userIds = new Set(users.map((row) => row.id));
  const accountIds = new Set(users.map((row) => row.account_id));
  const deliveryIds = new Set((all.webhook_deliveries ?? []).filter((row) => row.organization_id === organizationId).map((row) => row.id));
  const dump: Dump = {};
  for (const [table, rows] of Object.entries(all)) {
    dump[table] = rows.filter(
      (row) =>
        row.organization_id === organizationId ||
        (table === 'organizations' && row.id === organizationId) ||
        (table === 'accounts' && accountIds.has(row.id)) ||
        (table === 'webhook_attempts' && deliveryIds.has(row.delivery_id)) ||
        (typeof row.user_id === 'string' && userIds.has(row.user_id)) ||
        (typeof row.account_id === 'string' && accountIds.has(row.account_id)),
    );
  }
  return dump;
}

/** The dump without the columns that merely record use (an API key's lastUsedAt). */
export function withoutUsageStamps(dump: Dump): Dump {
  return { ...dump, api_keys: (dump.api_keys ?? []).map(({ last_used_at: _lastUsedAt, ...row }) => row) };
}

/** The rows of `after` that are not, identically, in `before`: what a call added or changed. */
export function changedRows(before: Dump, after: Dump): Dump {
  const changed: Dump = {};
  for (const [table, rows] of Object.entries(after)) {
    // The mail worker updates outbox rows on its own schedule (delivery attempts, expired links):
    // of the outbox, only the messages a request added count as its writes.
    const key = table === 'outbox' ? (row: Record<string, unknown>) => String(row.id) : stable;
    const old = new Set((before[table] ?? []).map((row) => key(row)));
    const fresh = rows.filter((row) => !old.has(key(row)));
    if (fresh.length > 0) changed[table] = fresh;
  }
  return changed;
}

function sortRows(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((row) => normalize(row)).sort((a, b) => (stable(a) < stable(b) ? -1 : stable(a) > stable(b) ? 1 : 0));
}

/** Plain JSON values: dates as ISO text, numbers from PostgreSQL's numeric/bigint text as they are. */
function normalize(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
}

export const stable = (row: Record<string, unknown>): string =>
  JSON.stringify(Object.fromEntries(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1))));
