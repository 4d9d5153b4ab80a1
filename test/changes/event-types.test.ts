import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore } from '../support/harness.js';
import { changesSince, feedEnd, readFeed } from './feed-support.js';

const RATE = { currency: 'EUR', from: '2026-01-01T00:00:00Z', to: null, taxRate: 0, value: 10 };

describeEachStore('Change feed: one event per change, through each area\'s routes (docs/rules.md §6 Change feed)', (h) => {
  it('projects: created (with the creator\'s membership), updated, archived, unarchived, deleted', async () => {
    const ws = await h.workspace();
    const start = await feedEnd(h, ws);
    const project = await make.project(h, ws, { name: 'Alpha' });
    const creator = Object.values((await as(h, ws).get(`/api/projects/${project.id}/members`)).body)[0];
    const renamed = (await as(h, ws).put(`/api/projects/${project.id}`, { name: 'Beta' })).body;
    const archived = (await as(h, ws).put(`/api/projects/${project.id}`, { archived: true })).body;
    const unarchived = (await as(h, ws).put(`/api/projects/${project.id}`, { archived: false })).body;
    expect((await as(h, ws).delete(`/api/projects/${project.id}`)).status).toBe(200);
    expect(await changesSince(h, ws, start)).toEqual([
      ['project.created', project],
      ['member.added', creator],
      ['project.updated', renamed],
      ['project.archived', archived],
      ['project.unarchived', unarchived],
      ['project.deleted', { id: project.id }],
    ]);
  });

  it('project members: added, updated, removed', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const project = await make.project(h, ws);
    const start = await feedEnd(h, ws);
    const member = await make.member(h, ws, { project, user });
    const updated = (await as(h, ws).put(`/api/projects/${project.id}/members/${member.id}`, { title: 'Lead' })).body;
    expect((await as(h, ws).delete(`/api/projects/${project.id}/members/${member.id}`)).status).toBe(200);
    expect(await changesSince(h, ws, start)).toEqual([
      ['member.added', member],
      ['member.updated', updated],
      ['member.removed', { id: member.id }],
    ]);
  });

  it('revenue and cost rates: created, updated, deleted', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const project = await make.project(h, ws);
    const member = await make.member(h, ws, { project, user });
    const start = await feedEnd(h, ws);
    const revenueUrl = `/api/projects/${project.id}/members/${member.id}/rates/revenue`;
    const revenue = await make.revenueRate(h, ws, { project, member });
    const revenueChanged = (await as(h, ws).put(`${revenueUrl}/${revenue.id}`, { ...RATE, value: 20 })).body;
    expect((await as(h, ws).delete(`${revenueUrl}/${revenue.id}`)).status).toBe(200);
    const costUrl = `/api/users/${user.userId}/rates/cost`;
    const cost = await make.costRate(h, ws, { user });
    const costChanged = (await as(h, ws).put(`${costUrl}/${cost.id}`, { ...RATE, value: 5 })).body;
    expect((await as(h, ws).delete(`${costUrl}/${cost.id}`)).status).toBe(200);
    expect(await changesSince(h, ws, start)).toEqual([
      ['revenue_rate.created', revenue],
      ['revenue_rate.updated', revenueChanged],
      ['revenue_rate.deleted', { id: revenue.id }],
      ['cost_rate.created', cost],
      ['cost_rate.updated', costChanged],
      ['cost_rate.deleted', { id: cost.id }],
    ]);
  });

  it('users: invited (every invitation), updated, archived, unarchived, deleted', async () => {
    const ws = await h.workspace();
    const start = await feedEnd(h, ws);
    const invited = (await as(h, ws).post('/api/users', { email: 'ann@example.com', name: 'Ann' })).body;
    const again = (await as(h, ws).post('/api/users', { email: 'ann@example.com' })).body;
    const titled = (await as(h, ws).put(`/api/users/${invited.id}`, { title: 'Engineer' })).body;
    const archived = (await as(h, ws).put(`/api/users/${invited.id}`, { archived: true })).body;
    const unarchived = (await as(h, ws).put(`/api/users/${invited.id}`, { archived: false })).body;
    expect((await as(h, ws).delete(`/api/users/${invited.id}`)).status).toBe(200);
    expect(again).toEqual(invited);
    expect(await changesSince(h, ws, start)).toEqual([
      ['user.invited', invited],
      ['user.invited', invited],
      ['user.updated', titled],
      ['user.archived', archived],
      ['user.unarchived', unarchived],
      ['user.deleted', { id: invited.id }],
    ]);
  });

  it('reports: created, updated, deleted', async () => {
    const ws = await h.workspace();
    const start = await feedEnd(h, ws);
    const report = await make.report(h, ws);
    const renamed = (await as(h, ws).put(`/api/reports/${report.id}`, { name: 'Renamed' })).body;
    expect((await as(h, ws).delete(`/api/reports/${report.id}`)).status).toBe(200);
    expect(await changesSince(h, ws, start)).toEqual([
      ['report.created', report],
      ['report.updated', renamed],
      ['report.deleted', { id: report.id }],
    ]);
  });

  it('requests: created and resolved (either outcome), with the events of a resolution\'s effects before it', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const project = await make.project(h, ws);
    const start = await feedEnd(h, ws);
    const assignment = await make.request(h, ws, { kind: 'assignment', by: ws.admin, project, users: [user] });
    const resolved = (await as(h, ws).put(`/api/requests/${assignment.id}/projects/members`, { status: 'RESOLVED' })).body;
    const approval = await make.request(h, ws, { kind: 'timesheetApproval', by: user, year: 2026, week: 10 });
    const rejected = (await as(h, ws).put(`/api/requests/${approval.id}/timesheets/approvals`, { status: 'REJECTED' })).body;
    const member = Object.values((await as(h, ws).get(`/api/projects/${project.id}/members`)).body).find((m: any) => m.userId === user.userId);
    const events = await changesSince(h, ws, start);
    expect(events.map(([type]) => type)).toEqual(['request.created', 'member.added', 'request.resolved', 'request.created', 'request.resolved']);
    expect(events[0][1]).toEqual({ ...assignment, type: 'assignment', projectId: project.id, userIds: [user.userId] });
    expect(events[1][1]).toEqual(member);
    expect(events[2][1]).toEqual((await as(h, ws).get(`/api/requests/${assignment.id}`)).body);
    expect(events[2][1]).toMatchObject(resolved);
    expect(events[4][1]).toEqual((await as(h, ws).get(`/api/requests/${approval.id}`)).body);
    expect(events[4][1]).toMatchObject({ ...rejected, status: 'REJECTED' });
  });

  it('timesheet locks: locked, unlocked by a resolved unlock request, removed', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const start = await feedEnd(h, ws);
    const lock = await make.lock(h, ws, { user, year: 2026, week: 10 });
    const unlock = await make.request(h, ws, { kind: 'timesheetUnlock', by: user, year: 2026, week: 10 });
    expect((await as(h, ws).put(`/api/requests/${unlock.id}/timesheets/unlock`, { status: 'RESOLVED' })).status).toBe(200);
    const unlocked = Object.values((await as(h, ws).get('/api/timesheets/locks')).body)[0] as any;
    expect((await as(h, ws).delete(`/api/timesheets/lock/${lock.id}`)).status).toBe(200);
    const events = await changesSince(h, ws, start);
    expect(events.map(([type]) => type)).toEqual(['timesheet.locked', 'request.created', 'timesheet.unlocked', 'request.resolved', 'timesheet.lock_removed']);
    expect(events[0][1]).toEqual(lock);
    expect(events[2][1]).toEqual(unlocked);
    expect(events[4][1]).toEqual({ id: lock.id });
  });

  it('a resolution refused after its transaction already wrote (the member is gone: 409) leaves no event and the request PENDING', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const project = await make.project(h, ws);
    const member = await make.member(h, ws, { project, user });
    const request = await make.request(h, ws, { kind: 'roleChange', by: ws.admin, project, member, role: 'Administrator' });
    expect((await as(h, ws).delete(`/api/projects/${project.id}/members/${member.id}`)).status).toBe(200);
    const start = await feedEnd(h, ws);
    const res = await as(h, ws).put(`/api/requests/${request.id}/projects/members/role`, { status: 'RESOLVED' });
    expect(res.status).toBe(409);
    expect(await changesSince(h, ws, start)).toEqual([]);
    expect((await as(h, ws).get(`/api/requests/${request.id}`)).body.status).toBe('PENDING');
  });

  it('each event names its actor, and reads record ids no other workspace can see', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    await make.project(h, ws);
    const { events } = await readFeed(h, ws);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.actorId).toBe(ws.admin.userId);
    expect((await readFeed(h, other)).events).toEqual([]);
  });
});
