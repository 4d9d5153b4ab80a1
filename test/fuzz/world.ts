import { randomBytes } from 'node:crypto';
import { make } from '../support/factories/index.js';
import { isSuccess, type CallerRole, type Client, type Scope } from './client.js';
import type { Pools } from './generate.js';

/**
 * The seeded workspace the fuzzer works in, and the records path ids are taken from:
 * - `seeded`: records made once (an admin, a User, a second User as a target, two projects with
 *   members, an activity each, rates, reports, one request of every kind, a lock, a geofence,
 *   a subscription…), for reads and for writes that do not use them up;
 * - `fresh`: a record made just before the request, for updates and deletes, so the seeded
 *   records (and the callers' own accounts) survive whatever a request does;
 * - `isolated`: a workspace of its own, for the operations that rename or delete the workspace.
 *
 * The workspaces, their people and the records no route makes come from the suites' factories
 * (test/support/factories); every record a route makes is made here through the fuzzer's own Client,
 * so the oracle judges the set-up answers too, and a failed set-up is a FixtureError the engine
 * counts as a skipped case instead of failing the run.
 */

export type Params = Record<string, string>;

let workspaceCounter = 0;

const uniqueLabel = () => `fz${(++workspaceCounter).toString(36)}${randomBytes(3).toString('hex')}`;

export class FixtureError extends Error {}

export class World {
  private counter = 0;

  private constructor(
    readonly client: Client,
    readonly main: Scope,
    /** A User of the main workspace that never sends requests: the target of admin-side writes. */
    readonly targetUserId: string,
    readonly ids: Record<string, string>,
    readonly requestIds: Record<string, string>,
  ) {}

  get pools(): Pools {
    const { ids, main } = this;
    return {
      userIds: [main.adminId, main.userId, this.targetUserId],
      projectIds: [ids.project, ids.project2],
      memberIds: [ids.memberU, ids.memberU2, ids.memberAdmin],
    };
  }

  /** A new workspace with an administrator and a User, each with an API key. */
  static async scope(client: Client): Promise<Scope> {
    const domain = uniqueLabel();
    const ws = await make.workspace(client, { domain, name: `Fuzz ${domain}`, adminName: 'Fuzz Admin' });
    const user = await make.user(client, ws, { email: `user@${domain}.example.com`, name: 'Fuzz User' });
    return {
      domain,
      host: ws.host,
      organizationId: ws.organizationId,
      adminId: ws.admin.userId,
      userId: user.userId,
      tokens: { admin: ws.admin.token, user: user.token },
    };
  }

  static async seed(client: Client): Promise<World> {
    const main = await World.scope(client);
    const send = (caller: CallerRole, method: string, path: string, params: Params, body?: unknown) =>
      World.must(client, main, caller, method, path, params, body);

    const target = await send('admin', 'POST', '/users', {}, { email: `target@${main.domain}.example.com`, name: 'Target' });
    const project = await send('admin', 'POST', '/projects', {}, { name: 'Seed project', billable: true, notes: 'seeded' });
    const project2 = await send('admin', 'POST', '/projects', {}, { name: 'Seed project 2' });
    const members = await send('admin', 'GET', '/projects/{projectId}/members', { projectId: project.id });
    const memberAdmin = Object.values<any>(members).find((m) => m.userId === main.adminId);
    const memberU = await send('admin', 'POST', '/projects/{projectId}/members', { projectId: project.id }, { userId: main.userId, tags: ['seed'] });
    const memberU2 = await send('admin', 'POST', '/projects/{projectId}/members', { projectId: project2.id }, {
      userId: main.userId,
      role: 'Administrator',
    });
    const rate = { currency: 'EUR', from: '2020-01-01T00:00:00Z', to: '2021-01-01T00:00:00Z', taxRate: 19, value: 50 };
    const revenue = await send('admin', 'POST', '/projects/{projectId}/members/{memberId}/rates/revenue', {
      projectId: project.id,
      memberId: memberU.id,
    }, rate);
    const cost = await send('admin', 'POST', '/users/{userId}/rates/cost', { userId: main.userId }, rate);
    const period = { startedAt: '2026-03-02T09:00:00Z', endedAt: '2026-03-02T10:00:00+00:00' };
    const activityAdmin = await send('admin', 'POST', '/activities', {}, { name: 'Seed', projectId: project.id, ...period });
    const activityU = await send('user', 'POST', '/activities', {}, { name: 'Seed (User)', projectId: project.id, ...period });
    const report = { name: 'Seed report', period: 'custom', start: '2026-01-01T00:00:00Z', end: '2026-02-01T00:00:00Z', dimensions: ['project'], metrics: ['time'] };
    const reportAdmin = await send('admin', 'POST', '/reports', {}, report);
    const reportU = await send('user', 'POST', '/reports', {}, report);
    const lock = await send('admin', 'POST', '/timesheets/lock', {}, { userId: target.id, year: 2020, week: 10 });
    const geofence = await send('admin', 'POST', '/geofences', {}, { latitude: 52.52, longitude: 13.405, radius: 200, name: 'Office', projectId: project.id });
    const apiKey = await send('admin', 'POST', '/api-keys', {}, { name: 'seed' });
    // Never called: only the server runs the webhook delivery worker, so the fuzzer makes no outgoing requests.
    const webhook = await send('admin', 'POST', '/webhooks', {}, { url: 'https://hooks.example.com/seed', events: ['*'] });
    const [webhookDelivery] = await send('admin', 'GET', '/webhooks/{webhookId}/deliveries', { webhookId: webhook.id });
    await make.subscription(client, main, { id: `sub_${main.domain}`, status: 'active', plan: 'team', nextBillDate: '2026-08-01', quantity: 3 });
    await make.billingTransaction(client, main, { id: `txn_${main.domain}`, amount: 12.5, currency: 'EUR', status: 'paid', paidAt: '2026-07-01T00:00:00.000Z' });

    const world = new World(
      client,
      main,
      target.id,
      {
        project: project.id,
        project2: project2.id,
        memberAdmin: memberAdmin.id,
        memberU: memberU.id,
        memberU2: memberU2.id,
        revenue: revenue.id,
        cost: cost.id,
        activityAdmin: activityAdmin.id,
        activityU: activityU.id,
        reportAdmin: reportAdmin.id,
        reportU: reportU.id,
        lock: lock.id,
        geofence: geofence.id,
        webhook: webhook.id,
        webhookDelivery: webhookDelivery.id,
        apiKey: apiKey.id,
        subscription: `sub_${main.domain}`,
      },
      {},
    );
    for (const kind of Object.keys(REQUEST_MAKERS)) world.requestIds[kind] = await world.makeRequest(kind);
    return world;
  }

  /** Sends a set-up request that must succeed, and answers its body. */
  static async must(client: Client, scope: Scope, caller: CallerRole, method: string, path: string, params: Params, body?: unknown): Promise<any> {
    const sent = await client.call(scope, caller, client.operation(method, path), params, body === undefined ? {} : { body });
    if (!isSuccess(sent)) throw new FixtureError(`set-up ${method} ${path} answered ${sent.reply.status}: ${sent.reply.text.slice(0, 300)}`);
    return sent.reply.body;
  }

  private send(caller: CallerRole, method: string, path: string, params: Params, body?: unknown): Promise<any> {
    return World.must(this.client, this.main, caller, method, path, params, body);
  }

  /** As the User when the caller is the User, else as the administrator; the administrator when the User may not. */
  private async asCallerOrAdmin(caller: CallerRole, make: (as: CallerRole) => Promise<any>): Promise<any> {
    if (caller === 'user') {
      try {
        return await make('user');
      } catch (error) {
        if (!(error instanceof FixtureError)) throw error;
      }
    }
    return make('admin');
  }

  private next(): number {
    return ++this.counter;
  }

  private async freshUser(): Promise<string> {
    const n = this.next();
    const user = await this.send('admin', 'POST', '/users', {}, { email: `fresh${n}@${this.main.domain}.example.com`, name: `Fresh ${n}` });
    return user.id;
  }

  private async freshMember(): Promise<Params> {
    const userId = await this.freshUser();
    const member = await this.send('admin', 'POST', '/projects/{projectId}/members', { projectId: this.ids.project2 }, { userId });
    return { projectId: this.ids.project2, memberId: member.id };
  }

  private async makeRequest(kind: string): Promise<string> {
    if (kind === 'impersonation') {
      return (await make.request(this.client, this.main, { kind: 'impersonation', reason: 'fuzz' })).id;
    }
    const maker = REQUEST_MAKERS[kind];
    return (await this.send('user', 'POST', maker.path, maker.params(this), maker.body?.(this))).id;
  }

  /** Path values from the seeded records, for an operation at `template` called by `caller`. */
  seeded(template: string, caller: CallerRole): Params[] {
    const { ids, main } = this;
    const self = caller === 'user' ? main.userId : main.adminId;
    const other = caller === 'user' ? main.adminId : main.userId;
    const table: Record<string, Params[]> = {
      '/projects/{projectId}': [{ projectId: ids.project }, { projectId: ids.project2 }],
      '/projects/{projectId}/members': [{ projectId: ids.project }, { projectId: ids.project2 }],
      '/projects/{projectId}/members/{memberId}': [
        { projectId: ids.project, memberId: ids.memberU },
        { projectId: ids.project2, memberId: ids.memberU2 },
        { projectId: ids.project, memberId: ids.memberAdmin },
      ],
      '/projects/{projectId}/members/{memberId}/rates/revenue': [
        { projectId: ids.project, memberId: ids.memberU },
        { projectId: ids.project2, memberId: ids.memberU2 },
      ],
      '/projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}': [
        { projectId: ids.project, memberId: ids.memberU, revenueId: ids.revenue },
      ],
      '/activities/{activityId}': [{ activityId: ids.activityAdmin }, { activityId: ids.activityU }],
      '/users/{userId}/rates/cost': [{ userId: main.userId }, { userId: this.targetUserId }, { userId: main.adminId }],
      '/users/{userId}/rates/cost/{costId}': [{ userId: main.userId, costId: ids.cost }],
      '/subscriptions/{subscriptionId}': [{ subscriptionId: ids.subscription }],
      '/geofences/{geofenceId}': [{ geofenceId: ids.geofence }],
      '/webhooks/{webhookId}': [{ webhookId: ids.webhook }],
      '/webhooks/{webhookId}/rotate-secret': [{ webhookId: ids.webhook }],
      '/webhooks/{webhookId}/ping': [{ webhookId: ids.webhook }],
      '/webhooks/{webhookId}/deliveries': [{ webhookId: ids.webhook }],
      '/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': [{ webhookId: ids.webhook, deliveryId: ids.webhookDelivery }],
      '/users/{userId}': [{ userId: main.adminId }, { userId: main.userId }, { userId: this.targetUserId }],
      '/users/{userId}/preferences': [{ userId: self }, { userId: self }, { userId: self }, { userId: other }],
      '/reports/{reportId}': [{ reportId: ids.reportAdmin }, { reportId: ids.reportU }],
      '/requests/{requestId}': Object.values(this.requestIds).map((requestId) => ({ requestId })),
      '/requests/projects/{projectId}/members/{memberId}/role': [
        { projectId: ids.project, memberId: ids.memberU },
        { projectId: ids.project2, memberId: ids.memberU2 },
      ],
      '/requests/projects/{projectId}/members': [{ projectId: ids.project }, { projectId: ids.project2 }],
      '/api-keys/{apiKeyId}': [{ apiKeyId: ids.apiKey }],
      '/timesheets/lock/{lockId}': [{ lockId: ids.lock }],
    };
    return table[template] ?? [{}];
  }

  /** Whether updates and deletes at this path get a record of their own. */
  hasFresh(template: string): boolean {
    return template in FRESH;
  }

  /** A new record for an update or delete at `template` (see FRESH). */
  fresh(template: string, caller: CallerRole): Promise<Params> {
    return FRESH[template](this, caller);
  }

  // The factories below are used by FRESH.
  async freshApiKey(caller: CallerRole): Promise<Params> {
    const as = caller === 'user' ? 'user' : 'admin';
    return { apiKeyId: (await this.send(as, 'POST', '/api-keys', {}, { name: `fresh ${this.next()}` })).id };
  }

  async freshProject(caller: CallerRole): Promise<Params> {
    const project = await this.send('admin', 'POST', '/projects', {}, { name: `Fresh project ${this.next()}` });
    if (caller === 'user') {
      await this.send('admin', 'POST', '/projects/{projectId}/members', { projectId: project.id }, { userId: this.main.userId, role: 'Administrator' });
    }
    return { projectId: project.id };
  }

  async freshMemberParams(): Promise<Params> {
    return this.freshMember();
  }

  async freshRevenueRate(): Promise<Params> {
    const member = await this.freshMember();
    const rate = await this.send('admin', 'POST', '/projects/{projectId}/members/{memberId}/rates/revenue', member, {
      currency: 'EUR',
      from: '2026-01-01T00:00:00Z',
      to: null,
      taxRate: 0,
      value: 10,
    });
    return { ...member, revenueId: rate.id };
  }

  async freshCostRate(): Promise<Params> {
    const userId = await this.freshUser();
    const rate = await this.send('admin', 'POST', '/users/{userId}/rates/cost', { userId }, { currency: 'EUR', from: '2026-01-01T00:00:00Z', taxRate: 0, value: 10 });
    return { userId, costId: rate.id };
  }

  async freshActivity(caller: CallerRole): Promise<Params> {
    const start = Date.UTC(2031, 0, 6, 9) + this.next() * 3_600_000;
    const body = { name: 'Fresh', startedAt: new Date(start).toISOString(), endedAt: new Date(start + 1_800_000).toISOString() };
    const activity = await this.asCallerOrAdmin(caller, (as) => this.send(as, 'POST', '/activities', {}, body));
    return { activityId: activity.id };
  }

  async freshGeofence(): Promise<Params> {
    return { geofenceId: (await this.send('admin', 'POST', '/geofences', {}, { latitude: 1, longitude: 2, radius: 50 })).id };
  }

  async freshWebhook(): Promise<Params> {
    return { webhookId: (await this.send('admin', 'POST', '/webhooks', {}, { url: 'https://hooks.example.com/fresh', events: ['*'] })).id };
  }

  async freshUserParams(caller: CallerRole): Promise<Params> {
    return { userId: caller === 'user' ? this.main.userId : await this.freshUser() };
  }

  async freshReport(caller: CallerRole): Promise<Params> {
    const body = { name: `Fresh ${this.next()}`, period: 'thisWeek', start: '2026-01-05T00:00:00Z', end: '2026-01-12T00:00:00Z', dimensions: ['day'], metrics: ['time'] };
    const report = await this.asCallerOrAdmin(caller, (as) => this.send(as, 'POST', '/reports', {}, body));
    return { reportId: report.id };
  }

  async freshRequest(kind: string): Promise<Params> {
    return { requestId: await this.makeRequest(kind) };
  }

  async freshLock(): Promise<Params> {
    const n = this.next();
    const lock = await this.send('admin', 'POST', '/timesheets/lock', {}, { userId: this.targetUserId, year: 1900 + Math.floor(n / 52), week: (n % 52) + 1 });
    return { lockId: lock.id };
  }

  /** A workspace of its own, for operations that rename or delete the workspace. */
  isolated(): Promise<Scope> {
    return World.scope(this.client);
  }
}

/** How a request of each kind is made (as the User), for the resolve routes. */
const REQUEST_MAKERS: Record<string, { path: string; params: (w: World) => Params; body?: (w: World) => unknown }> = {
  roleChange: {
    path: '/requests/projects/{projectId}/members/{memberId}/role',
    params: (w) => ({ projectId: w.ids.project, memberId: w.ids.memberU }),
    body: () => ({ role: 'Administrator' }),
  },
  assignment: {
    path: '/requests/projects/{projectId}/members',
    params: (w) => ({ projectId: w.ids.project }),
    body: (w) => ({ userIds: [w.targetUserId] }),
  },
  projectAssignment: { path: '/requests/projects/request-assignment', params: () => ({}) },
  timesheetUnlock: { path: '/requests/timesheets/{year}/{week}/unlock', params: () => ({ year: '2026', week: '10' }) },
  timesheetApproval: { path: '/requests/timesheets/{year}/{week}/approvals', params: () => ({ year: '2026', week: '10' }) },
  impersonation: { path: '', params: () => ({}) },
};

/** Path templates whose updates and deletes each get a fresh record, and how it is made. */
const FRESH: Record<string, (w: World, caller: CallerRole) => Promise<Params>> = {
  '/api-keys/{apiKeyId}': (w, caller) => w.freshApiKey(caller),
  '/projects/{projectId}': (w, caller) => w.freshProject(caller),
  '/projects/{projectId}/members/{memberId}': (w) => w.freshMemberParams(),
  '/projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}': (w) => w.freshRevenueRate(),
  '/activities/{activityId}': (w, caller) => w.freshActivity(caller),
  '/users/{userId}/rates/cost/{costId}': (w) => w.freshCostRate(),
  '/geofences/{geofenceId}': (w) => w.freshGeofence(),
  '/webhooks/{webhookId}': (w) => w.freshWebhook(),
  '/users/{userId}': (w, caller) => w.freshUserParams(caller),
  '/reports/{reportId}': (w, caller) => w.freshReport(caller),
  '/requests/{requestId}': (w) => w.freshRequest('impersonation'),
  '/requests/{requestId}/projects/members/role': (w) => w.freshRequest('roleChange'),
  '/requests/{requestId}/projects/members': (w) => w.freshRequest('assignment'),
  '/requests/{requestId}/projects/assign': (w) => w.freshRequest('projectAssignment'),
  '/requests/{requestId}/timesheets/unlock': (w) => w.freshRequest('timesheetUnlock'),
  '/requests/{requestId}/timesheets/approvals': (w) => w.freshRequest('timesheetApproval'),
  '/timesheets/lock/{lockId}': (w) => w.freshLock(),
};
