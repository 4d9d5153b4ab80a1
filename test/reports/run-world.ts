import { make } from '../support/factories/index.js';
import { as, ok, type Harness, type Response, type TestUser, type TestWorkspace } from '../support/harness.js';

/** A custom July 2026, empty rows hidden, unless told: the body of POST /reports/run. */
export const JULY = { period: 'custom', start: '2026-07-01T00:00:00Z', end: '2026-08-01T00:00:00Z', hideEmptyRows: true };

/** Runs an ad-hoc report as `by` (the workspace's admin unless told). */
export function runReport(h: Harness, ws: TestWorkspace, body: Record<string, unknown>, options: { by?: TestUser; query?: Record<string, string> } = {}): Promise<Response> {
  return as(h, ws, options.by ?? ws.admin).post('/api/reports/run', { ...JULY, ...body }, { query: { timeZone: 'UTC', ...options.query } });
}

/** Runs an ad-hoc report that must answer 200, and answers its body. */
export const report = (h: Harness, ws: TestWorkspace, body: Record<string, unknown>, options: { by?: TestUser; query?: Record<string, string> } = {}) =>
  ok(runReport(h, ws, body, options));

/** An activity of `owner` on `project` (none: null), from `startedAt` for `seconds`. */
export function entry(
  h: Harness,
  ws: TestWorkspace,
  options: { owner: TestUser; project?: { id: string } | null; startedAt: string; seconds: number; billable?: boolean; name?: string },
) {
  const endedAt = new Date(Date.parse(options.startedAt) + options.seconds * 1000).toISOString();
  return make.activity(h, ws, {
    owner: options.owner,
    ...(options.project ? { project: options.project } : {}),
    startedAt: options.startedAt,
    endedAt,
    billable: options.billable ?? true,
    name: options.name ?? 'Work',
  });
}

/** The membership of a user in a project (made when missing). */
export async function membership(h: Harness, ws: TestWorkspace, project: { id: string }, user: TestUser, role = 'User'): Promise<{ id: string }> {
  const members = await ok(as(h, ws).get(`/api/projects/${project.id}/members`));
  const found = Object.values<any>(members).find((member) => member.userId === user.userId);
  return found ?? make.member(h, ws, { project, user, role });
}

/** A named user (labels are names), a User unless told. */
export async function namedUser(h: Harness, ws: TestWorkspace, name: string, role: 'User' | 'Administrator' = 'User'): Promise<TestUser> {
  return make.user(h, ws, { role, name });
}

/** Sets the workspace's rounding. */
export const setRounding = (h: Harness, ws: TestWorkspace, rounding: { enabled: boolean; interval?: number; mode?: string }) =>
  ok(as(h, ws).put('/api/organization', { rounding }));

/** A money map in minor units (cents), for exact comparisons of sums. */
export const cents = (amounts: Record<string, number> = {}, digits = 2): Record<string, number> =>
  Object.fromEntries(Object.entries(amounts).map(([currency, amount]) => [currency, Math.round(amount * 10 ** digits)]));
