import { make } from '../support/factories/index.js';
import { as, ok, type Harness } from '../support/harness.js';
import { currentCode, hashPassword, hashToken } from '../support/src.js';
import { ACTIVITY_DAY, importsEnded, next, oneTimeToken, togglFile, uniquePeriod, uniqueWeek, type RequestKind, type World } from './world.js';

/**
 * One valid request for every operation of the API, against a seeded world (test/security/world.ts):
 * its path parameters (by name), body and query. Operations that destroy or use up their target
 * (deletes, resolutions, one-time tokens, additions that may happen once) make a fresh one on every
 * call, so each call is valid on its own. The authorization matrix, the isolation suite and the
 * mass-assignment suite all send these.
 */
export interface Call {
  params?: Record<string, string>;
  body?: unknown;
  query?: Record<string, string>;
  /** A body that is no JSON, sent as is (an import's CSV file), with the headers that say what it is. */
  payload?: string;
  headers?: Record<string, string>;
}

export type Build = (h: Harness, world: World) => Promise<Call>;

/** `/projects/{projectId}` with params → `/api/projects/p1`. */
export function urlOf(path: string, params: Record<string, string> = {}): string {
  return (
    '/api' +
    path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (params[name] === undefined) throw new Error(`no value for {${name}} in ${path}`);
      return encodeURIComponent(params[name]);
    })
  );
}

const rate = (period = uniquePeriod()) => ({ currency: 'EUR', ...period, taxRate: 7, value: 55 });
const project = (w: World) => ({ projectId: w.projectId });
const member = (w: World) => ({ projectId: w.projectId, memberId: w.memberId });

/** A fresh project with the world's membership structure: user a plain member, projectAdmin its admin. */
async function freshProject(h: Harness, w: World): Promise<string> {
  const created = await make.project(h, w.ws, { name: `Fresh ${next()}` });
  await make.member(h, w.ws, { project: created, user: w.user });
  await make.member(h, w.ws, { project: created, user: w.projectAdmin, role: 'Administrator' });
  return created.id;
}

/** A fresh member of the world's project (a new user). */
async function freshMember(h: Harness, w: World): Promise<string> {
  const user = await h.user(w.ws);
  return (await make.member(h, w.ws, { project: w.projectId, user })).id;
}

/** A fresh PENDING request of a kind, made by the world's user (impersonation: as the CLI makes it). */
async function freshRequest(h: Harness, w: World, kind: RequestKind): Promise<string> {
  const by = w.user;
  switch (kind) {
    case 'roleChange':
      // Asks for the role the member has: resolving it changes nothing the other calls rely on.
      return (await make.request(h, w.ws, { kind, by, project: w.projectId, member: w.memberId, role: 'User' })).id;
    case 'assignment':
      return (await make.request(h, w.ws, { kind, by, project: w.projectId, users: [w.user] })).id;
    case 'projectAssignment':
      return (await make.request(h, w.ws, { kind, by })).id;
    case 'impersonation':
      return (await make.request(h, w.ws, { kind, reason: 'fresh' })).id;
    case 'timesheetUnlock':
    case 'timesheetApproval':
      return (await make.request(h, w.ws, { kind, by, year: 2020, week: 11 })).id;
  }
}

const MATRIX_PASSWORD = 'correct horse battery staple';
let matrixDigest: Promise<string> | undefined;

/** Every account of the store gets MATRIX_PASSWORD (whoever calls, the current password is known). */
async function givePasswordToAll(h: Harness): Promise<void> {
  matrixDigest ??= hashPassword(MATRIX_PASSWORD);
  await h.app.db.updateTable('accounts').set({ password_hash: await matrixDigest }).execute();
}

/** A fresh user of the world's workspace whose password is MATRIX_PASSWORD: their email. */
async function accountWithPassword(h: Harness, w: World): Promise<string> {
  const user = await h.user(w.ws);
  await givePasswordToAll(h);
  return user.email;
}

/** A fresh session of the user's account (as a sign-in makes one): its id. */
async function freshSessionId(h: Harness, userId: string): Promise<string> {
  const token = await make.session(h, userId);
  const row = await h.app.db.selectFrom('sessions').select('id').where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
  return row.id;
}

const resolve = (kind: RequestKind, body: Record<string, unknown> = { status: 'RESOLVED' }): Build => async (h, w) => ({
  params: { requestId: await freshRequest(h, w, kind) },
  body,
});

/** Keyed `METHOD /path` as the OpenAPI document names them (paths without the /api prefix). */
export const OPERATIONS: Record<string, Build> = {
  /* Workspace and API keys */
  'GET /auth': async () => ({}),
  'GET /api-keys': async () => ({}),
  'POST /api-keys': async () => ({ body: { name: `Key ${next()}` } }),
  'DELETE /api-keys/{apiKeyId}': async (h, w) => ({
    params: { apiKeyId: (await ok(as(h, w.ws, w.user).post('/api/api-keys', { name: `Doomed ${next()}` }))).id },
  }),
  'POST /auth/sign-out': async () => ({}),
  'GET /auth/sessions': async () => ({}),
  'DELETE /auth/sessions/{sessionId}': async (h, w) => ({ params: { sessionId: await freshSessionId(h, w.user.userId) } }),
  'POST /auth/email-link': async (_h, w) => ({ body: { email: w.user.email } }),
  'POST /auth/password-reset': async (_h, w) => ({ body: { email: w.user.email } }),
  'POST /auth/find-workspaces': async (_h, w) => ({ body: { email: w.user.email } }),
  'POST /auth/sign-in': async (h, w) => ({ body: { email: await accountWithPassword(h, w), password: MATRIX_PASSWORD } }),
  'PUT /auth/password': async (h) => {
    await givePasswordToAll(h);
    return { body: { currentPassword: MATRIX_PASSWORD, newPassword: MATRIX_PASSWORD } };
  },
  'GET /organizations': async () => ({}),
  'GET /organization': async () => ({}),
  'PUT /organization': async () => ({ body: { notes: `Notes ${next()}` } }),
  'DELETE /organization': async () => ({}),
  'POST /organization/rename': async () => ({ body: { domain: `renamed-${process.pid}-${Date.now().toString(36)}-${next()}` } }),

  /* Projects and members */
  'GET /projects': async () => ({}),
  'POST /projects': async () => ({ body: { name: `Project ${next()}`, billable: true, notes: 'n' } }),
  'GET /projects/{projectId}': async (_h, w) => ({ params: project(w) }),
  'PUT /projects/{projectId}': async (_h, w) => ({ params: project(w), body: { notes: `Notes ${next()}` } }),
  'DELETE /projects/{projectId}': async (h, w) => ({ params: { projectId: await freshProject(h, w) } }),
  'GET /projects/{projectId}/members': async (_h, w) => ({ params: project(w) }),
  'POST /projects/{projectId}/members': async (h, w) => ({
    params: project(w),
    body: { userId: (await h.user(w.ws)).userId, title: 'Engineer' },
  }),
  'GET /projects/{projectId}/members/{memberId}': async (_h, w) => ({ params: member(w) }),
  'PUT /projects/{projectId}/members/{memberId}': async (_h, w) => ({ params: member(w), body: { title: `Title ${next()}` } }),
  'DELETE /projects/{projectId}/members/{memberId}': async (h, w) => ({
    params: { projectId: w.projectId, memberId: await freshMember(h, w) },
  }),

  /* Activities */
  'GET /activities': async () => ({ query: { from: `${ACTIVITY_DAY}T00:00:00Z` } }),
  'POST /activities': async (_h, w) => ({
    body: { name: 'Work', startedAt: `${ACTIVITY_DAY}T11:00:00Z`, endedAt: `${ACTIVITY_DAY}T12:00:00Z`, projectId: w.projectId },
  }),
  'GET /activities/{activityId}': async (_h, w) => ({ params: { activityId: w.activityId } }),
  'PUT /activities/{activityId}': async (_h, w) => ({ params: { activityId: w.activityId }, body: { name: `Work ${next()}` } }),
  'DELETE /activities/{activityId}': async (h, w) => ({
    params: {
      activityId: (
        await make.activity(h, w.ws, {
          owner: w.user,
          project: w.projectId,
          name: 'Doomed',
          startedAt: `${ACTIVITY_DAY}T13:00:00Z`,
          endedAt: `${ACTIVITY_DAY}T14:00:00Z`,
        })
      ).id,
    },
  }),

  /* Revenue rates (of the user's membership) */
  'GET /projects/{projectId}/members/{memberId}/rates/revenue': async (_h, w) => ({ params: member(w) }),
  'POST /projects/{projectId}/members/{memberId}/rates/revenue': async (_h, w) => ({ params: member(w), body: rate() }),
  'GET /projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}': async (_h, w) => ({
    params: { ...member(w), revenueId: w.revenueRateId },
  }),
  'PUT /projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}': async (_h, w) => ({
    params: { ...member(w), revenueId: w.revenueRateId },
    body: rate({ from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' }),
  }),
  'DELETE /projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}': async (h, w) => ({
    params: {
      ...member(w),
      revenueId: (await make.revenueRate(h, w.ws, { project: w.projectId, member: w.memberId, ...rate() })).id,
    },
  }),

  /* Cost rates (of the user) */
  'GET /users/{userId}/rates/cost': async (_h, w) => ({ params: { userId: w.user.userId } }),
  'POST /users/{userId}/rates/cost': async (_h, w) => ({ params: { userId: w.user.userId }, body: rate() }),
  'GET /users/{userId}/rates/cost/{costId}': async (_h, w) => ({ params: { userId: w.user.userId, costId: w.costRateId } }),
  'PUT /users/{userId}/rates/cost/{costId}': async (_h, w) => ({
    params: { userId: w.user.userId, costId: w.costRateId },
    body: rate({ from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' }),
  }),
  'DELETE /users/{userId}/rates/cost/{costId}': async (h, w) => ({
    params: {
      userId: w.user.userId,
      costId: (await make.costRate(h, w.ws, { user: w.user, ...rate() })).id,
    },
  }),

  /* Billing */
  'GET /subscriptions': async () => ({}),
  'PUT /subscriptions/{subscriptionId}': async (_h, w) => ({ params: { subscriptionId: w.subscriptionId }, body: { quantity: 5 } }),
  'POST /checkout': async () => ({ body: { product: 1, quantity: 2 } }),
  'GET /billing-history': async () => ({}),
  'POST /receipt': async () => ({ body: { receiptBase64: 'aGVsbG8=' } }),

  /* Geofences */
  'GET /changes': async () => ({}),
  'GET /geofences': async () => ({}),
  'POST /geofences': async (_h, w) => ({
    body: { latitude: 48.1, longitude: 11.6, radius: 250, name: 'Site', enterAction: 'start', projectId: w.projectId },
  }),
  'GET /geofences/{geofenceId}': async (_h, w) => ({ params: { geofenceId: w.geofenceId } }),
  'PUT /geofences/{geofenceId}': async (_h, w) => ({ params: { geofenceId: w.geofenceId }, body: { name: `Office ${next()}` } }),
  'DELETE /geofences/{geofenceId}': async (h, w) => ({
    params: { geofenceId: (await ok(as(h, w.ws, w.admin).post('/api/geofences', { latitude: 1, longitude: 2, radius: 3 }))).id },
  }),

  /* Tags: every user creates; administrators rename, archive and delete */
  'GET /tags': async () => ({}),
  'POST /tags': async () => ({ body: { name: `Tag ${next()}` } }),
  'PUT /tags/{tagId}': async (_h, w) => ({ params: { tagId: w.tagId }, body: { name: `Tag ${next()}` } }),
  'DELETE /tags/{tagId}': async (h, w) => ({ params: { tagId: (await ok(as(h, w.ws, w.admin).post('/api/tags', { name: `Gone ${next()}` }))).id } }),

  /* Webhooks (never delivered here: only the server runs the delivery worker) */
  'GET /webhooks': async () => ({}),
  'POST /webhooks': async () => ({ body: { url: `https://hooks.example.com/${next()}`, events: ['activity.created'], description: 'Payroll' } }),
  'GET /webhooks/{webhookId}': async (_h, w) => ({ params: { webhookId: w.webhookId } }),
  'PUT /webhooks/{webhookId}': async (_h, w) => ({ params: { webhookId: w.webhookId }, body: { description: `Sync ${next()}` } }),
  'DELETE /webhooks/{webhookId}': async (h, w) => ({
    params: { webhookId: (await ok(as(h, w.ws, w.admin).post('/api/webhooks', { url: 'https://hooks.example.com/gone', events: ['*'] }))).id },
  }),
  'POST /webhooks/{webhookId}/rotate-secret': async (_h, w) => ({ params: { webhookId: w.webhookId } }),
  'POST /webhooks/{webhookId}/ping': async (_h, w) => ({ params: { webhookId: w.webhookId } }),
  'GET /webhooks/{webhookId}/deliveries': async (_h, w) => ({ params: { webhookId: w.webhookId } }),
  'POST /webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': async (_h, w) => ({
    params: { webhookId: w.webhookId, deliveryId: w.webhookDeliveryId },
  }),

  /* Users and preferences */
  'GET /users': async () => ({}),
  'POST /users': async () => ({ body: { email: `invitee-${process.pid}-${next()}@example.com`, name: 'Invitee', title: 'Tester' } }),
  'GET /users/{userId}': async (_h, w) => ({ params: { userId: w.user.userId } }),
  'PUT /users/{userId}': async (_h, w) => ({ params: { userId: w.user.userId }, body: { name: `Name ${next()}`, phone: '+49 30 1234' } }),
  'DELETE /users/{userId}': async (h, w) => ({ params: { userId: (await h.user(w.ws)).userId } }),
  'GET /users/{userId}/preferences': async (_h, w) => ({ params: { userId: w.user.userId } }),
  'PUT /users/{userId}/preferences': async (_h, w) => ({
    params: { userId: w.user.userId },
    body: { timeZone: 'Europe/Berlin', desktop: { startTrackingOnStartup: true } },
  }),

  /* Reports (the user's) */
  'GET /reports': async () => ({}),
  'POST /reports': async () => ({
    body: {
      name: `Report ${next()}`,
      period: 'custom',
      start: '2026-07-01T00:00:00Z',
      end: '2026-08-01T00:00:00Z',
      dimensions: ['project', 'user'],
      metrics: ['time', 'billableTime'],
    },
  }),
  'GET /reports/{reportId}': async (_h, w) => ({ params: { reportId: w.reportId } }),
  'POST /reports/run': async () => ({
    body: {
      period: 'custom',
      start: '2026-07-01T00:00:00Z',
      end: '2026-08-01T00:00:00Z',
      dimensions: ['project', 'user'],
      metrics: ['time', 'billableTime'],
    },
  }),
  'GET /reports/{reportId}/run': async (_h, w) => ({ params: { reportId: w.reportId } }),
  'GET /reports/{reportId}/entries': async (_h, w) => ({ params: { reportId: w.reportId } }),
  'POST /reports/entries': async () => ({
    body: { period: 'custom', start: '2026-07-01T00:00:00Z', end: '2026-08-01T00:00:00Z', dimensions: ['project'], metrics: ['time'] },
  }),
  'PUT /reports/{reportId}': async (_h, w) => ({ params: { reportId: w.reportId }, body: { name: `Report ${next()}`, pinned: true } }),
  'DELETE /reports/{reportId}': async (h, w) => ({
    params: {
      reportId: (
        await make.report(h, w.ws, {
          owner: w.user,
          name: `Doomed ${next()}`,
          period: 'today',
          start: '2026-07-04T00:00:00Z',
          end: '2026-07-05T00:00:00Z',
          dimensions: ['day'],
          metrics: ['time'],
        })
      ).id,
    },
  }),

  /* Requests */
  'GET /requests': async () => ({}),
  'GET /requests/{requestId}': async (_h, w) => ({ params: { requestId: w.requests.projectAssignment } }),
  'PUT /requests/{requestId}': resolve('impersonation'),
  'POST /requests/projects/{projectId}/members/{memberId}/role': async (_h, w) => ({ params: member(w), body: { role: 'Administrator' } }),
  'PUT /requests/{requestId}/projects/members/role': resolve('roleChange'),
  'POST /requests/projects/{projectId}/members': async (_h, w) => ({ params: project(w), body: { userIds: [w.user.userId] } }),
  'PUT /requests/{requestId}/projects/members': resolve('assignment'),
  'POST /requests/projects/request-assignment': async () => ({}),
  'PUT /requests/{requestId}/projects/assign': async (h, w) => ({
    params: { requestId: await freshRequest(h, w, 'projectAssignment') },
    body: { status: 'RESOLVED', projectIds: [w.projectId] },
  }),
  'POST /requests/timesheets/{year}/{week}/unlock': async () => ({ params: { year: '2026', week: '27' } }),
  'POST /requests/timesheets/{year}/{week}/approvals': async () => ({ params: { year: '2026', week: '27' } }),
  'PUT /requests/{requestId}/timesheets/unlock': resolve('timesheetUnlock'),
  'PUT /requests/{requestId}/timesheets/approvals': resolve('timesheetApproval', { status: 'REJECTED' }),
  'POST /auth/one-time': async (h, w) => ({ body: { token: await oneTimeToken(h, w.ws) } }),

  /* Two-factor codes and sign-in settings: the user's account starts without 2FA, and nobody has a pending enrolment */
  'GET /auth/two-factor': async () => ({}),
  'POST /auth/two-factor': async (h, w) => {
    await make.noTwoFactor(h, w.user);
    return {};
  },
  'POST /auth/two-factor/confirm': async (h, w) => {
    await make.noTwoFactor(h, w.user);
    const { secret } = await ok(as(h, w.ws, w.user).post('/api/auth/two-factor'));
    return { body: { code: currentCode(secret) } };
  },
  'POST /auth/two-factor/disable': async (h, w) => {
    await make.noTwoFactor(h, w.user);
    return { body: { recoveryCode: (await make.twoFactor(h, w.ws, w.user)).recoveryCodes[0] } };
  },
  'POST /auth/two-factor/recovery-codes': async (h, w) => {
    await make.noTwoFactor(h, w.user);
    return { body: { recoveryCode: (await make.twoFactor(h, w.ws, w.user)).recoveryCodes[0] } };
  },
  'POST /auth/two-factor/verify': async (h, w) => {
    await make.noTwoFactor(h, w.user);
    const { recoveryCodes } = await make.twoFactor(h, w.ws, w.user);
    return { body: { challenge: await make.signInChallenge(h, w.ws, w.user), recoveryCode: recoveryCodes[0] } };
  },
  'GET /auth/settings': async () => ({}),
  'PUT /auth/settings': async () => ({ body: { twoFactorRequired: false } }),
  'GET /auth/providers': async () => ({}),
  'GET /auth/oidc/start': async () => ({}),
  'GET /auth/oidc/callback': async () => ({ query: { state: `state-${next()}`, code: 'code' } }),

  /* Timesheets */
  'PUT /timesheets/auto-lock': async () => ({ body: { reason: 'security suite' } }),
  'POST /timesheets/lock': async (_h, w) => ({ body: { userId: w.user.userId, year: 2020, week: 10 } }),
  'DELETE /timesheets/lock/{lockId}': async (h, w) => ({
    params: { lockId: (await make.lock(h, w.ws, { user: w.user, ...uniqueWeek() })).id },
  }),
  'GET /timesheets/locks': async () => ({ query: { year: '2020' } }),
  'POST /timesheets/reminder': async () => ({ body: { reason: 'security suite' } }),

  /* Clients (a deleted one is fresh: the world's has a project) */
  'GET /clients': async () => ({}),
  'POST /clients': async () => ({ body: { name: `Client ${next()}`, notes: 'Billed monthly' } }),
  'GET /clients/{clientId}': async (_h, w) => ({ params: { clientId: w.clientId } }),
  'PUT /clients/{clientId}': async (_h, w) => ({ params: { clientId: w.clientId }, body: { notes: `Notes ${next()}` } }),
  'DELETE /clients/{clientId}': async (h, w) => ({ params: { clientId: (await make.client(h, w.ws, { name: `Gone ${next()}` })).id } }),

  /* Tasks of the world's project (a deleted one is fresh) */
  'GET /projects/{projectId}/tasks': async (_h, w) => ({ params: project(w) }),
  'POST /projects/{projectId}/tasks': async (_h, w) => ({ params: project(w), body: { name: `Task ${next()}`, billable: true } }),
  'GET /projects/{projectId}/tasks/{taskId}': async (_h, w) => ({ params: { ...project(w), taskId: w.taskId } }),
  'PUT /projects/{projectId}/tasks/{taskId}': async (_h, w) => ({ params: { ...project(w), taskId: w.taskId }, body: { name: `Task ${next()}` } }),
  'DELETE /projects/{projectId}/tasks/{taskId}': async (h, w) => ({
    params: { ...project(w), taskId: (await make.task(h, w.ws, { project: w.projectId, name: `Gone ${next()}` })).id },
  }),

  /* Imports: administrators only. One import at a time per workspace (409 while another is queued or
     running): each call waits until the workspace's imports have ended, and sends a file of its own. */
  'POST /imports': async (h, w) => {
    await importsEnded(h, w.ws);
    return { query: { source: 'toggl' }, payload: togglFile(w.user.email, `Imported ${next()}`), headers: { 'content-type': 'text/csv' } };
  },
  'GET /imports': async () => ({}),
  'GET /imports/{importId}': async (_h, w) => ({ params: { importId: w.importId } }),
  'GET /export': async () => ({}),
};

/** Every operation of the served OpenAPI document, as `METHOD /path`. */
export async function servedOperations(h: Harness): Promise<string[]> {
  const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
  const operations: string[] = [];
  for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (item[method]) operations.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return operations;
}
