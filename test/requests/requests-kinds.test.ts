import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';

/** Each kind of request from creation to RESOLVED and to REJECTED, its effect checked through other routes. */

interface World {
  ws: TestWorkspace;
  user: TestUser;
  project: { id: string };
  member: { id: string };
}

async function world(h: Harness): Promise<World> {
  const ws = await h.workspace();
  const user = await h.user(ws);
  const project = await make.project(h, ws, { name: 'Apollo' });
  const member = await make.member(h, ws, { project, user });
  return { ws, user, project, member };
}

const membersOf = async (h: Harness, ws: TestWorkspace, projectId: string) =>
  Object.values((await as(h, ws).get(`/api/projects/${projectId}/members`)).body) as any[];

describeEachStore('Role-change requests', (h) => {
  const create = (h: Harness, w: World, role = 'Administrator') =>
    as(h, w.ws, w.user).post(`/api/requests/projects/${w.project.id}/members/${w.member.id}/role`, { role });

  it('RESOLVED gives the member the requested role', async () => {
    const w = await world(h);
    const request = (await create(h, w)).body;
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/members/role`, { status: 'RESOLVED' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('RESOLVED');
    const member = await as(h, w.ws).get(`/api/projects/${w.project.id}/members/${w.member.id}`);
    expect(member.body.role).toBe('Administrator');
    // The new project admin now administers the project.
    expect((await as(h, w.ws, w.user).put(`/api/projects/${w.project.id}`, { notes: 'mine now' })).status).toBe(200);
  });

  it('RESOLVED can also demote a project admin to User', async () => {
    const w = await world(h);
    await as(h, w.ws).put(`/api/projects/${w.project.id}/members/${w.member.id}`, { role: 'Administrator' });
    const request = (await create(h, w, 'User')).body;
    expect((await as(h, w.ws).put(`/api/requests/${request.id}/projects/members/role`, { status: 'RESOLVED' })).status).toBe(200);
    expect((await as(h, w.ws).get(`/api/projects/${w.project.id}/members/${w.member.id}`)).body.role).toBe('User');
  });

  it('REJECTED leaves the role as it is', async () => {
    const w = await world(h);
    const request = (await create(h, w)).body;
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/members/role`, { status: 'REJECTED' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('REJECTED');
    expect((await as(h, w.ws).get(`/api/projects/${w.project.id}/members/${w.member.id}`)).body.role).toBe('User');
  });

  it('RESOLVED when the member was removed since is 409 and the request stays PENDING (it can still be REJECTED)', async () => {
    const w = await world(h);
    const request = (await create(h, w)).body;
    await as(h, w.ws).delete(`/api/projects/${w.project.id}/members/${w.member.id}`);
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/members/role`, { status: 'RESOLVED' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect((await as(h, w.ws).get(`/api/requests/${request.id}`)).body.status).toBe('PENDING');
    expect((await as(h, w.ws).put(`/api/requests/${request.id}/projects/members/role`, { status: 'REJECTED' })).status).toBe(200);
  });
});

describeEachStore('Assignment requests', (h) => {
  it('RESOLVED makes each named user a member (role User, assignedBy the resolver); existing memberships stay', async () => {
    const w = await world(h);
    const resolver = await h.user(w.ws, { role: 'Administrator' });
    const newcomer = await h.user(w.ws);
    await as(h, w.ws).put(`/api/projects/${w.project.id}/members/${w.member.id}`, { role: 'Administrator', title: 'Lead' });
    const request = (
      await as(h, w.ws, w.user).post(`/api/requests/projects/${w.project.id}/members`, { userIds: [newcomer.userId, w.user.userId] })
    ).body;
    const res = await as(h, w.ws, resolver).put(`/api/requests/${request.id}/projects/members`, { status: 'RESOLVED' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'RESOLVED', resolvedBy: resolver.userId });
    const members = await membersOf(h, w.ws, w.project.id);
    expect(members.find((m) => m.userId === newcomer.userId)).toEqual({
      id: expect.any(String),
      projectId: w.project.id,
      userId: newcomer.userId,
      role: 'User',
      archived: false,
      assignedBy: resolver.userId,
      tags: null,
    });
    // The requester was a member already: that membership is untouched.
    expect(members.find((m) => m.userId === w.user.userId)).toMatchObject({ id: w.member.id, role: 'Administrator', title: 'Lead' });
    expect(members).toHaveLength(3);
    // The newcomer now sees the project.
    expect((await as(h, w.ws, newcomer).get(`/api/projects/${w.project.id}`)).status).toBe(200);
  });

  it('RESOLVED skips users archived or deleted since the request was made', async () => {
    const w = await world(h);
    const [stays, archived, deleted] = [await h.user(w.ws), await h.user(w.ws), await h.user(w.ws)];
    const request = (
      await as(h, w.ws, w.user).post(`/api/requests/projects/${w.project.id}/members`, {
        userIds: [stays.userId, archived.userId, deleted.userId],
      })
    ).body;
    expect((await as(h, w.ws).put(`/api/users/${archived.userId}`, { archived: true })).status).toBe(200);
    expect((await as(h, w.ws).delete(`/api/users/${deleted.userId}`)).status).toBe(200);
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/members`, { status: 'RESOLVED' });
    expect(res.status).toBe(200);
    const userIds = (await membersOf(h, w.ws, w.project.id)).map((m) => m.userId).sort();
    expect(userIds).toEqual([w.ws.admin.userId, w.user.userId, stays.userId].sort());
  });

  it('REJECTED assigns no one', async () => {
    const w = await world(h);
    const newcomer = await h.user(w.ws);
    const request = (await as(h, w.ws, w.user).post(`/api/requests/projects/${w.project.id}/members`, { userIds: [newcomer.userId] })).body;
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/members`, { status: 'REJECTED' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('REJECTED');
    expect((await membersOf(h, w.ws, w.project.id)).map((m) => m.userId)).not.toContain(newcomer.userId);
  });

  it('RESOLVED when the project was deleted since is 409 and the request stays PENDING', async () => {
    const w = await world(h);
    const newcomer = await h.user(w.ws);
    const request = (await as(h, w.ws, w.user).post(`/api/requests/projects/${w.project.id}/members`, { userIds: [newcomer.userId] })).body;
    await as(h, w.ws).delete(`/api/projects/${w.project.id}`);
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/members`, { status: 'RESOLVED' });
    expect(res.status).toBe(409);
    expect((await as(h, w.ws).get(`/api/requests/${request.id}`)).body.status).toBe('PENDING');
  });
});

describeEachStore('Project-assignment requests', (h) => {
  it('RESOLVED makes the requester a member (role User, assignedBy the resolver) of each of projectIds, recorded on the request', async () => {
    const w = await world(h);
    const gemini = (await as(h, w.ws).post('/api/projects', { name: 'Gemini' })).body;
    const request = (await as(h, w.ws, w.user).post('/api/requests/projects/request-assignment')).body;
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/assign`, {
      status: 'RESOLVED',
      projectIds: [gemini.id, w.project.id, gemini.id],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...request, status: 'RESOLVED', resolvedAt: expect.any(String), resolvedBy: w.ws.admin.userId });
    expect((await membersOf(h, w.ws, gemini.id)).find((m) => m.userId === w.user.userId)).toMatchObject({
      role: 'User',
      assignedBy: w.ws.admin.userId,
    });
    // Already a member of Apollo: that membership stays, no second one.
    expect((await membersOf(h, w.ws, w.project.id)).filter((m) => m.userId === w.user.userId)).toEqual([
      expect.objectContaining({ id: w.member.id }),
    ]);
    expect((await as(h, w.ws, w.user).get(`/api/requests/${request.id}`)).body).toMatchObject({
      type: 'projectAssignment',
      status: 'RESOLVED',
      projectIds: [gemini.id, w.project.id],
    });
    expect(Object.keys((await as(h, w.ws, w.user).get('/api/projects')).body).sort()).toEqual([w.project.id, gemini.id].sort());
  });

  it('RESOLVED needs projectIds: missing, empty or naming another workspace\'s project is 422 and changes nothing', async () => {
    const w = await world(h);
    const foreign = (await as(h, await h.workspace()).post('/api/projects', { name: 'Foreign' })).body;
    const request = (await as(h, w.ws, w.user).post('/api/requests/projects/request-assignment')).body;
    const cases: Array<[unknown, string]> = [
      [{ status: 'RESOLVED' }, '/body/projectIds'],
      [{ status: 'RESOLVED', projectIds: [] }, '/body/projectIds'],
      [{ status: 'RESOLVED', projectIds: [foreign.id] }, '/body/projectIds/0'],
      [{ status: 'RESOLVED', projectIds: 'all' }, '/body/projectIds'],
      [{ status: 'RESOLVED', projectIds: [5] }, '/body/projectIds/0'],
    ];
    for (const [body, pointer] of cases) {
      const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/assign`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    expect((await as(h, w.ws).get(`/api/requests/${request.id}`)).body).toEqual({ ...request, type: 'projectAssignment' });
  });

  it('REJECTED needs no projectIds and assigns nothing', async () => {
    const w = await world(h);
    const gemini = (await as(h, w.ws).post('/api/projects', { name: 'Gemini' })).body;
    const request = (await as(h, w.ws, w.user).post('/api/requests/projects/request-assignment')).body;
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/assign`, { status: 'REJECTED' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('REJECTED');
    const rejected = await as(h, w.ws, w.user).post('/api/requests/projects/request-assignment');
    const withIds = await as(h, w.ws).put(`/api/requests/${rejected.body.id}/projects/assign`, { status: 'REJECTED', projectIds: [gemini.id] });
    expect(withIds.status).toBe(200);
    expect((await membersOf(h, w.ws, gemini.id)).map((m) => m.userId)).toEqual([w.ws.admin.userId]);
    expect((await as(h, w.ws).get(`/api/requests/${rejected.body.id}`)).body).not.toHaveProperty('projectIds');
  });
});

describeEachStore('Timesheet unlock requests', (h) => {
  it('RESOLVED opens the requester\'s week until now + unlockDuration hours (creating the lock record)', async () => {
    const w = await world(h);
    await as(h, w.ws).put('/api/organization', { lockingTimesheets: { unlockDuration: 48 } });
    const request = (await as(h, w.ws, w.user).post('/api/requests/timesheets/2026/27/unlock')).body;
    const before = Date.now();
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/timesheets/unlock`, { status: 'RESOLVED' });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('RESOLVED');
    const locks = Object.values((await as(h, w.ws).get('/api/timesheets/locks')).body) as any[];
    expect(locks).toEqual([
      {
        id: expect.any(String),
        userId: w.user.userId,
        year: 2026,
        week: 27,
        unlockedTo: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const unlockedTo = Date.parse(locks[0].unlockedTo);
    expect(unlockedTo).toBeGreaterThanOrEqual(before + 48 * 3_600_000 - 1000);
    expect(unlockedTo).toBeLessThanOrEqual(after + 48 * 3_600_000);
  });

  it('RESOLVED keeps an existing lock record (same id and createdAt) and only sets its unlockedTo', async () => {
    const w = await world(h);
    const lock = (await as(h, w.ws).post('/api/timesheets/lock', { userId: w.user.userId, year: 2026, week: 10 })).body;
    expect(lock.unlockedTo).toBeNull();
    const request = (await as(h, w.ws, w.user).post('/api/requests/timesheets/2026/10/unlock')).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await as(h, w.ws).put(`/api/requests/${request.id}/timesheets/unlock`, { status: 'RESOLVED' })).status).toBe(200);
    const locks = (await as(h, w.ws).get('/api/timesheets/locks')).body;
    expect(Object.keys(locks)).toEqual([lock.id]);
    expect(locks[lock.id]).toMatchObject({ createdAt: lock.createdAt, year: 2026, week: 10, userId: w.user.userId });
    expect(Date.parse(locks[lock.id].unlockedTo)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(locks[lock.id].updatedAt > lock.updatedAt).toBe(true);
  });

  it('REJECTED opens nothing', async () => {
    const w = await world(h);
    const request = (await as(h, w.ws, w.user).post('/api/requests/timesheets/2026/27/unlock')).body;
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/timesheets/unlock`, { status: 'REJECTED' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('REJECTED');
    expect((await as(h, w.ws).get('/api/timesheets/locks')).body).toEqual({});
  });
});

describeEachStore('Timesheet approval requests', (h) => {
  // RESOLVED also locks the requester's week: test/requests/timesheet-approval-lock.test.ts.
  it('RESOLVED and REJECTED record the decision and leave the organization as it was', async () => {
    const w = await world(h);
    const organization = (await as(h, w.ws).get('/api/organization')).body;
    for (const status of ['RESOLVED', 'REJECTED']) {
      const request = (await as(h, w.ws, w.user).post('/api/requests/timesheets/2026/27/approvals')).body;
      const res = await as(h, w.ws).put(`/api/requests/${request.id}/timesheets/approvals`, { status });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...request, status, resolvedAt: expect.any(String), resolvedBy: w.ws.admin.userId });
      expect((await as(h, w.ws, w.user).get(`/api/requests/${request.id}`)).body).toEqual({
        ...res.body,
        type: 'timesheetApproval',
        year: 2026,
        week: 27,
      });
    }
    expect(Object.values((await as(h, w.ws).get('/api/timesheets/locks')).body)).toMatchObject([{ userId: w.user.userId, year: 2026, week: 27, unlockedTo: null }]);
    expect((await as(h, w.ws).get('/api/organization')).body).toEqual(organization);
  });
});
