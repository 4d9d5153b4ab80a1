import { expect, it } from 'vitest';
import { as, describeEachStore, type Harness } from '../support/harness.js';
import { listingPlanOf } from '../support/plans.js';
import type { ActivityFilter, ActivityReader } from '../support/src.js';
import { tracking } from '../support/tracking.js';

const planOf = (h: Harness, filter: ActivityFilter, reader: ActivityReader) => listingPlanOf(h, filter, reader);

describeEachStore('Listing activities', (h) => {
  async function day() {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    // 09:00–10:00, 10:00–11:00, 11:00–12:00 and a timer running since 08:00, all of one user.
    const nine = await t.activity(user, { name: '9', startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00Z' });
    const ten = await t.activity(user, { name: '10', startedAt: '2026-07-04T10:00:00Z', endedAt: '2026-07-04T11:00:00Z' });
    const eleven = await t.activity(user, { name: '11', startedAt: '2026-07-04T11:00:00Z', endedAt: '2026-07-04T12:00:00Z' });
    const timer = await t.timer(user, '2026-07-04T08:00:00Z');
    const list = async (query: Record<string, string>) => Object.keys(await t.ok(t.api(user).get('/api/activities', undefined, { query })));
    return { ws, t, user, nine, ten, eleven, timer, list };
  }

  it('returns every visible activity without filters, keyed by id and ordered by startedAt then id', async () => {
    const { t, user, nine, ten, eleven, timer, list } = await day();
    const tie = await t.activity(user, { startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T09:30:00Z' });
    const sameStart = [nine.id, tie.id].sort();
    expect(await list({})).toEqual([timer.id, ...sameStart, ten.id, eleven.id]);
    const body = await t.ok(t.api(user).get('/api/activities'));
    expect(body[timer.id]).toEqual(timer);
  });

  it('applies the half-open period to the millisecond; running timers always match from', async () => {
    const { nine, ten, eleven, timer, list } = await day();
    // An activity ending exactly at from is out; one ending a millisecond after it is in.
    expect(await list({ from: '2026-07-04T10:00:00Z' })).toEqual([timer.id, ten.id, eleven.id]);
    expect(await list({ from: '2026-07-04T09:59:59.999Z' })).toEqual([timer.id, nine.id, ten.id, eleven.id]);
    // An activity starting exactly at to is out; one starting a millisecond before it is in.
    expect(await list({ to: '2026-07-04T10:00:00Z' })).toEqual([timer.id, nine.id]);
    expect(await list({ to: '2026-07-04T10:00:00.001Z' })).toEqual([timer.id, nine.id, ten.id]);
    expect(await list({ from: '2026-07-04T10:00:00Z', to: '2026-07-04T11:00:00Z' })).toEqual([timer.id, ten.id]);
    // The running timer matches any from, even one long after it started, but not a to before its start.
    expect(await list({ from: '2030-01-01T00:00:00Z' })).toEqual([timer.id]);
    expect(await list({ to: '2026-07-04T08:00:00Z' })).toEqual([]);
    // from equal to to is no error: the two conditions apply as stated, keeping what spans that instant.
    expect(await list({ from: '2026-07-04T10:30:00Z', to: '2026-07-04T10:30:00Z' })).toEqual([timer.id, ten.id]);
  });

  it('reads offsets in the query, encoded or with the + decoded to a space', async () => {
    const { ws, user, ten, eleven, timer, list } = await day();
    expect(await list({ from: '2026-07-04T12:00:00+02:00' })).toEqual([timer.id, ten.id, eleven.id]);
    const unencoded = await as(h, ws, user).get('/api/activities?from=2026-07-04T12:00:00+02:00');
    expect(unencoded.status).toBe(200);
    expect(Object.keys(unencoded.body)).toEqual([timer.id, ten.id, eleven.id]);
  });

  it('answers 422 with /query/from or /query/to for bad values and for from after to', async () => {
    const { t, user } = await day();
    const cases: [Record<string, string>, string][] = [
      [{ from: 'yesterday' }, '/query/from'],
      [{ from: '2026-07-04T10:00:00' }, '/query/from'],
      [{ to: '2026-07-04' }, '/query/to'],
      [{ to: '2026-13-01T00:00:00Z' }, '/query/to'],
      [{ from: '2026-07-04T10:00:00.001Z', to: '2026-07-04T10:00:00Z' }, '/query/from'],
    ];
    for (const [query, pointer] of cases) {
      const res = await t.api(user).get('/api/activities', undefined, { query });
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.errors[0].pointer, JSON.stringify(query)).toBe(pointer);
    }
  });

  it('filters by userId and projectId, within what the caller may see', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const [lead, worker, peer] = await Promise.all([h.user(ws), h.user(ws), h.user(ws)]);
    const [p1, p2] = [await t.project(), await t.project()];
    await t.member(p1.id, lead, { role: 'Administrator' });
    for (const user of [worker, peer]) await t.member(p1.id, user);
    await t.member(p2.id, worker);
    const a = await t.activity(worker, { projectId: p1.id, startedAt: '2026-07-01T09:00:00Z', endedAt: '2026-07-01T10:00:00Z' });
    const b = await t.activity(worker, { projectId: p2.id, startedAt: '2026-07-02T09:00:00Z', endedAt: '2026-07-02T10:00:00Z' });
    const c = await t.activity(peer, { projectId: p1.id, startedAt: '2026-07-03T09:00:00Z', endedAt: '2026-07-03T10:00:00Z' });
    const d = await t.activity(lead, { startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00Z' });
    const e = await t.activity(ws.admin, { projectId: p1.id, startedAt: '2026-07-05T09:00:00Z', endedAt: '2026-07-05T10:00:00Z' });
    const keys = async (user = ws.admin, query: Record<string, string> = {}) =>
      Object.keys(await t.ok(t.api(user).get('/api/activities', undefined, { query })));

    expect(await keys()).toEqual([a.id, b.id, c.id, d.id, e.id]);
    expect(await keys(ws.admin, { userId: worker.userId })).toEqual([a.id, b.id]);
    expect(await keys(ws.admin, { projectId: p1.id })).toEqual([a.id, c.id, e.id]);
    expect(await keys(ws.admin, { userId: worker.userId, projectId: p1.id })).toEqual([a.id]);
    expect(await keys(ws.admin, { userId: 'nobody' })).toEqual([]);

    // The project admin: own activities plus every activity on the project they administer.
    expect(await keys(lead)).toEqual([a.id, c.id, d.id, e.id]);
    expect(await keys(lead, { userId: worker.userId })).toEqual([a.id]);
    expect(await keys(lead, { projectId: p1.id })).toEqual([a.id, c.id, e.id]);
    expect(await keys(lead, { projectId: p2.id })).toEqual([]);
    expect(await keys(lead, { userId: lead.userId })).toEqual([d.id]);
    // A plain member: own activities only.
    expect(await keys(worker)).toEqual([a.id, b.id]);
    expect(await keys(peer)).toEqual([c.id]);
    expect(await keys(peer, { projectId: p1.id })).toEqual([c.id]);
    expect(await keys(worker, { userId: peer.userId })).toEqual([]);
    expect(await keys(lead, { from: '2026-07-01T10:00:00Z', to: '2026-07-05T09:00:00Z' })).toEqual([c.id, d.id]);
  });

  it('serves each listing from the index that fits it (migrations 0002 and 0005)', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const project = await t.project();
    await t.member(project.id, user, { role: 'Administrator' });
    await t.activity(user, { projectId: project.id });
    const period = { organizationId: ws.organizationId, from: '2026-07-01T00:00:00.000Z', to: '2026-07-08T00:00:00.000Z' };
    const admin: ActivityReader = { all: true };
    const asUser: ActivityReader = { all: false, userId: user.userId };

    expect(await planOf(h, period, admin)).toContain('activities_organization_started');
    const byUser = await planOf(h, { ...period, userId: user.userId }, admin);
    expect(byUser).toContain('activities_user_listing');
    expect(byUser).not.toContain('activities_organization_started');
    const byProject = await planOf(h, { ...period, projectIds: [project.id] }, admin);
    expect(byProject).toContain('activities_project_started');
    expect(byProject).not.toContain('activities_organization_started');
    const ownAndAdministered = await planOf(h, period, asUser);
    expect(ownAndAdministered).toContain('activities_user_listing');
    expect(ownAndAdministered).toContain('project_members_user');
    expect(ownAndAdministered).toContain('activities_project_started');
    expect(ownAndAdministered).not.toContain('activities_organization_started');
    for (const plan of [byUser, byProject, ownAndAdministered]) expect(plan).not.toMatch(/SCAN activities|Seq Scan on activities/);
  });
});
