import { billingTransaction, subscription } from './billing.js';
import { client } from './clients.js';
import { history } from './history.js';
import { session, user, workspace } from './people.js';
import { activity, costRate, lock, member, project, report, revenueRate, timer } from './records.js';
import { request } from './requests.js';
import { tag } from './tags.js';
import { task } from './tasks.js';
import { noTwoFactor, signInChallenge, signInLink, twoFactor } from './two-factor.js';

/**
 * The factories of the suites: real records through the real code paths, with named states.
 *
 *   const ws = await make.workspace(h);
 *   const user = await make.user(h, ws, { role: 'Administrator', archived: true });
 *   const project = await make.project(h, ws, { billable: true, archived: true });
 *   const member = await make.member(h, ws, { project, user, role: 'Administrator' });
 *   await make.activity(h, ws, { owner: user, project, running: true });
 *   await make.history(h, ws, user, { count: 50_000, from: '2020-01-01T00:00:00Z', everyMs: 3_600_000, lastingMs: 1_800_000 });
 *   await make.request(h, ws, { kind: 'timesheetUnlock', by: user, year: 2026, week: 10 });
 *   const client = await make.client(h, ws, { archived: true });
 *   const task = await make.task(h, ws, { project, billable: true, archived: true });
 *
 * Records a client can make are made through the HTTP API (records.ts, requests.ts), as the
 * workspace's admin unless `by` (or `owner`) says otherwise, and must answer 200; the others with
 * the functions the CLI, sign-in and the provider's side use (people.ts, billing.ts, impersonation).
 * Each answers what its route answers (workspaces and users: a TestWorkspace, a TestUser).
 */
export const make = {
  workspace,
  user,
  session,
  project,
  member,
  activity,
  history,
  timer,
  lock,
  report,
  costRate,
  revenueRate,
  request,
  subscription,
  billingTransaction,
  twoFactor,
  noTwoFactor,
  signInChallenge,
  signInLink,
  client,
  task,
  tag,
};

export { unique, type HasApp } from './people.js';
export { ACTIVITY_DAY, idOf, type Ref } from './records.js';
export { REQUEST_KINDS, type RequestKind, type RequestState } from './requests.js';
