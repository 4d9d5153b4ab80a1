import type { Harness, TestUser, TestWorkspace } from '../harness.js';
import { ok } from '../ok.js';

/**
 * The records of a workspace, each made through the HTTP API as a client would (so every rule and
 * side effect of the route applies), and answered as the route answers them. Extra fields are sent
 * in the body as they are; named states (archived, running…) are the ones that take more than one call.
 */

/** A record or its id. */
export type Ref = string | { id: string };
export const idOf = (ref: Ref) => (typeof ref === 'string' ? ref : ref.id);

type Body = Record<string, unknown>;

/** Sends a request that must answer 200, as `by`, and answers its body. */
export const send = (h: Harness, ws: TestWorkspace, by: TestUser, method: string, url: string, body?: unknown) =>
  ok(h.call(method, url, { host: ws.host, token: by.token, body }));

/** A project, created by the workspace's admin (its creator becomes its project admin); archived on demand. */
export async function project(h: Harness, ws: TestWorkspace, options: { by?: TestUser; archived?: boolean } & Body = {}) {
  const { by = ws.admin, archived, ...body } = options;
  const created = await send(h, ws, by, 'POST', '/api/projects', { name: `Project ${Math.random().toString(36).slice(2)}`, ...body });
  return archived ? send(h, ws, by, 'PUT', `/api/projects/${created.id}`, { archived: true }) : created;
}

/** A member of a project: role User unless told (Administrator: a project admin), added by the workspace's admin; archived on demand. */
export async function member(
  h: Harness,
  ws: TestWorkspace,
  options: { project: Ref; user: TestUser; by?: TestUser; archived?: boolean } & Body,
) {
  const { project, user, by = ws.admin, archived, ...body } = options;
  const url = `/api/projects/${idOf(project)}/members`;
  const created = await send(h, ws, by, 'POST', url, { userId: user.userId, ...body });
  return archived ? send(h, ws, by, 'PUT', `${url}/${created.id}`, { archived: true }) : created;
}

/** The day activities are on unless told: Saturday of ISO week 27 of 2026. */
export const ACTIVITY_DAY = '2026-07-04';

/**
 * An activity of `owner` (the workspace's admin unless told), sent by the owner: closed, an hour on
 * ACTIVITY_DAY, unless told; `running` makes it a running timer (pending, no end).
 */
export function activity(
  h: Harness,
  ws: TestWorkspace,
  options: { owner?: TestUser; project?: Ref; running?: boolean } & Body = {},
) {
  const { owner = ws.admin, project, running, ...body } = options;
  const fields = running
    ? { name: 'Timer', startedAt: `${ACTIVITY_DAY}T09:00:00Z`, pending: true }
    : { name: 'Work', startedAt: `${ACTIVITY_DAY}T09:00:00Z`, endedAt: `${ACTIVITY_DAY}T10:00:00Z` };
  return send(h, ws, owner, 'POST', '/api/activities', {
    ...fields,
    ...(project === undefined ? {} : { projectId: idOf(project) }),
    ...body,
  });
}

/** A running timer of `owner` (an activity with `running: true`), started when told. */
export const timer = (h: Harness, ws: TestWorkspace, options: { owner?: TestUser; startedAt: string; project?: Ref } & Body) =>
  activity(h, ws, { ...options, running: true });

/** A timesheet lock of a user's ISO week, set by the workspace's admin (`unlockedTo` and the like go in the body). */
export function lock(h: Harness, ws: TestWorkspace, options: { user: TestUser; year: number; week: number; by?: TestUser } & Body) {
  const { user, year, week, by = ws.admin, ...body } = options;
  return send(h, ws, by, 'POST', '/api/timesheets/lock', { userId: user.userId, year, week, ...body });
}

/** A report of `owner` (the workspace's admin unless told): one custom month by project, time only, unless told. */
export function report(h: Harness, ws: TestWorkspace, options: { owner?: TestUser } & Body = {}) {
  const { owner = ws.admin, ...body } = options;
  return send(h, ws, owner, 'POST', '/api/reports', {
    name: `Report ${Math.random().toString(36).slice(2)}`,
    period: 'custom',
    start: '2026-07-01T00:00:00Z',
    end: '2026-08-01T00:00:00Z',
    dimensions: ['project'],
    metrics: ['time'],
    ...body,
  });
}

const RATE = { currency: 'EUR', from: '2026-01-01T00:00:00Z', to: null, taxRate: 0, value: 10 };

/** A cost rate of a user, set by the workspace's admin: 10 EUR from 2026 on, unless told. */
export function costRate(h: Harness, ws: TestWorkspace, options: { user: TestUser; by?: TestUser } & Body) {
  const { user, by = ws.admin, ...body } = options;
  return send(h, ws, by, 'POST', `/api/users/${user.userId}/rates/cost`, { ...RATE, ...body });
}

/** A revenue rate of a project member, set by the workspace's admin: 10 EUR from 2026 on, unless told. */
export function revenueRate(h: Harness, ws: TestWorkspace, options: { project: Ref; member: Ref; by?: TestUser } & Body) {
  const { project, member, by = ws.admin, ...body } = options;
  return send(h, ws, by, 'POST', `/api/projects/${idOf(project)}/members/${idOf(member)}/rates/revenue`, { ...RATE, ...body });
}
