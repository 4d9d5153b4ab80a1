import { make } from '../support/factories/index.js';
import { as, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';

/** The world of the detailed report's and the exports' tests (docs/rules.md §6 Reports). */

export const JULY = { period: 'custom', start: '2026-07-01T00:00:00Z', end: '2026-08-01T00:00:00Z' };

export interface World {
  ws: TestWorkspace;
  alice: TestUser;
  bob: TestUser;
  alpha: string;
  beta: string;
}

/**
 * Alice (User) and Bob (User, project admin of Alpha) in two billable projects; revenue rates for every
 * membership (Bob's on Alpha in USD), a cost rate for Alice only; rounding to 15 minutes, NEAREST.
 */
export async function world(h: Harness): Promise<World> {
  const ws = await h.workspace();
  const alice = await make.user(h, ws, { name: 'Alice' });
  const bob = await make.user(h, ws, { name: 'Bob' });
  const alpha = await make.project(h, ws, { name: 'Alpha', billable: true });
  const beta = await make.project(h, ws, { name: 'Beta', billable: true });
  const aliceAlpha = await make.member(h, ws, { project: alpha, user: alice });
  const bobAlpha = await make.member(h, ws, { project: alpha, user: bob, role: 'Administrator' });
  const aliceBeta = await make.member(h, ws, { project: beta, user: alice });
  const bobBeta = await make.member(h, ws, { project: beta, user: bob });
  await make.revenueRate(h, ws, { project: alpha, member: aliceAlpha, value: 100 });
  await make.revenueRate(h, ws, { project: alpha, member: bobAlpha, value: 50, currency: 'USD' });
  await make.revenueRate(h, ws, { project: beta, member: aliceBeta, value: 80 });
  await make.revenueRate(h, ws, { project: beta, member: bobBeta, value: 60 });
  await make.costRate(h, ws, { user: alice, value: 40 });
  await ok(as(h, ws).put('/api/organization', { rounding: { enabled: true, interval: 15, mode: 'NEAREST' } }));
  const at = (day: string, from: string, to: string) => ({ startedAt: `2026-07-${day}T${from}Z`, endedAt: `2026-07-${day}T${to}Z` });
  await make.activity(h, ws, { owner: alice, project: alpha, name: '=SUM(A1:A9)', ...at('01', '09:00:00', '10:30:00') });
  await make.activity(h, ws, { owner: alice, project: beta, name: 'a, "quoted"\nline', ...at('02', '09:00:00', '09:07:30') });
  await make.activity(h, ws, { owner: bob, project: alpha, name: '+cmd', ...at('03', '10:00:00', '12:00:00') });
  await make.activity(h, ws, { owner: bob, project: beta, name: '@at', ...at('04', '10:00:00', '11:00:00') });
  await make.activity(h, ws, { name: '-minus', ...at('05', '08:00:00', '08:45:00') });
  // Outside the period, and a running timer: never in the report.
  await make.activity(h, ws, { owner: alice, project: alpha, name: 'June', startedAt: '2026-06-30T23:00:00Z', endedAt: '2026-07-01T01:00:00Z' });
  await make.timer(h, ws, { owner: bob, startedAt: '2026-07-10T09:00:00Z' });
  return { ws, alice, bob, alpha: alpha.id, beta: beta.id };
}

export const report = (metrics: string[], extra: Record<string, unknown> = {}) => ({ name: 'July', ...JULY, dimensions: ['project'], metrics, ...extra });

