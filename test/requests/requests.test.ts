import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';

/** docs/rules.md §6 Requests: creation, reading and the rules every resolution obeys. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface World {
  ws: TestWorkspace;
  user: TestUser;
  other: TestUser;
  project: { id: string };
  member: { id: string };
}

/** A workspace with a User who is a member (role User) of project Apollo, and another User who is not. */
async function world(h: Harness): Promise<World> {
  const ws = await h.workspace();
  const user = await h.user(ws);
  const other = await h.user(ws);
  const project = await make.project(h, ws, { name: 'Apollo' });
  const member = await make.member(h, ws, { project, user });
  expect(member.role).toBe('User');
  return { ws, user, other, project, member };
}

/** Every kind of request, made by `user` (the impersonation one with the CLI's function), with its resolve route. */
async function oneOfEachKind(h: Harness, w: World) {
  const by = w.user;
  const roleChange = await make.request(h, w.ws, { kind: 'roleChange', by, project: w.project, member: w.member, role: 'Administrator' });
  const assignment = await make.request(h, w.ws, { kind: 'assignment', by, project: w.project, users: [w.other] });
  const projectAssignment = await make.request(h, w.ws, { kind: 'projectAssignment', by });
  const impersonation = await make.request(h, w.ws, { kind: 'impersonation', reason: 'ticket 42' });
  const unlock = await make.request(h, w.ws, { kind: 'timesheetUnlock', by, year: 2026, week: 27 });
  const approval = await make.request(h, w.ws, { kind: 'timesheetApproval', by, year: 2026, week: 27 });
  return [
    { id: roleChange.id, path: (id: string) => `/api/requests/${id}/projects/members/role` },
    { id: assignment.id, path: (id: string) => `/api/requests/${id}/projects/members` },
    { id: projectAssignment.id, path: (id: string) => `/api/requests/${id}/projects/assign` },
    { id: impersonation.id, path: (id: string) => `/api/requests/${id}` },
    { id: unlock.id, path: (id: string) => `/api/requests/${id}/timesheets/unlock` },
    { id: approval.id, path: (id: string) => `/api/requests/${id}/timesheets/approvals` },
  ];
}

describeEachStore('Requests: creation', (h) => {
  it('every kind of request starts PENDING, made by the caller, unresolved', async () => {
    const w = await world(h);
    const u = as(h, w.ws, w.user);
    const responses = [
      await u.post(`/api/requests/projects/${w.project.id}/members`, { userIds: [w.other.userId] }),
      await u.post('/api/requests/projects/request-assignment'),
      await u.post('/api/requests/timesheets/2026/27/unlock'),
      await u.post('/api/requests/timesheets/2026/27/approvals'),
    ];
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(String),
        status: 'PENDING',
        createdAt: expect.stringMatching(ISO),
        createdBy: w.user.userId,
        resolvedAt: null,
        resolvedBy: null,
      });
    }
  });

  it('the role-change answer also carries projectId and role', async () => {
    const w = await world(h);
    const res = await as(h, w.ws, w.user).post(`/api/requests/projects/${w.project.id}/members/${w.member.id}/role`, {
      role: 'Administrator',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      status: 'PENDING',
      createdAt: expect.stringMatching(ISO),
      createdBy: w.user.userId,
      resolvedAt: null,
      resolvedBy: null,
      projectId: w.project.id,
      role: 'Administrator',
    });
  });

  it('an administrator may create requests too', async () => {
    const w = await world(h);
    const res = await as(h, w.ws).post('/api/requests/timesheets/2026/1/approvals');
    expect(res.status).toBe(200);
    expect(res.body.createdBy).toBe(w.ws.admin.userId);
  });

  it('a role change needs a project the caller can see and one of its members: 404 otherwise', async () => {
    const w = await world(h);
    const second = (await as(h, w.ws).post('/api/projects', { name: 'Gemini' })).body;
    const adminMember = Object.keys((await as(h, w.ws).get(`/api/projects/${second.id}/members`)).body)[0];
    const u = as(h, w.ws, w.user);
    const cases = [
      `/api/requests/projects/nope/members/${w.member.id}/role`,
      `/api/requests/projects/${w.project.id}/members/nope/role`,
      // A project the User is no member of: hidden, so 404.
      `/api/requests/projects/${second.id}/members/${adminMember}/role`,
      // A member of another project.
      `/api/requests/projects/${w.project.id}/members/${adminMember}/role`,
    ];
    for (const url of cases) {
      const res = await u.post(url, { role: 'Administrator' });
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe('not-found');
    }
    const stranger = await h.workspace();
    const res = await as(h, stranger).post(`/api/requests/projects/${w.project.id}/members/${w.member.id}/role`, { role: 'User' });
    expect(res.status).toBe(404);
  });

  it('a role change asks for Administrator or User: anything else is 422', async () => {
    const w = await world(h);
    const url = `/api/requests/projects/${w.project.id}/members/${w.member.id}/role`;
    for (const body of [{ role: 'Owner' }, { role: 'administrator' }, {}, { role: 1 }]) {
      const res = await as(h, w.ws, w.user).post(url, body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation');
      expect(res.body.errors[0].pointer).toBe('/body/role');
    }
  });

  it('an assignment needs a non-empty list of unarchived users of this workspace: 422 otherwise', async () => {
    const w = await world(h);
    const archived = await h.user(w.ws, { archived: true });
    const elsewhere = await h.user(await h.workspace());
    const url = `/api/requests/projects/${w.project.id}/members`;
    const cases: Array<[unknown, string]> = [
      [{}, '/body/userIds'],
      [{ userIds: [] }, '/body/userIds'],
      [{ userIds: 'x' }, '/body/userIds'],
      [{ userIds: [w.other.userId, 'nobody'] }, '/body/userIds/1'],
      [{ userIds: [elsewhere.userId] }, '/body/userIds/0'],
      [{ userIds: [archived.userId] }, '/body/userIds/0'],
    ];
    for (const [body, pointer] of cases) {
      const res = await as(h, w.ws, w.user).post(url, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    expect((await as(h, w.ws, w.user).post('/api/requests/projects/nope/members', { userIds: [w.other.userId] })).status).toBe(404);
  });

  it('an assignment records each user once', async () => {
    const w = await world(h);
    const created = await as(h, w.ws, w.user).post(`/api/requests/projects/${w.project.id}/members`, {
      userIds: [w.other.userId, w.user.userId, w.other.userId],
    });
    expect(created.status).toBe(200);
    const read = await as(h, w.ws).get(`/api/requests/${created.body.id}`);
    expect(read.body.userIds).toEqual([w.other.userId, w.user.userId]);
  });

  it('year/week must be a real ISO week (week 53 only in long years), parsed strictly: 422 at /path/year or /path/week', async () => {
    const w = await world(h);
    const u = as(h, w.ws, w.user);
    for (const kind of ['unlock', 'approvals']) {
      for (const [year, week] of [['2026', '53'], ['2020', '53'], ['2027', '1'], ['2027', '52'], ['2026', '07']]) {
        const res = await u.post(`/api/requests/timesheets/${year}/${week}/${kind}`);
        expect(res.status, `${year}/${week}`).toBe(200);
      }
      const cases: Array<[string, string, string]> = [
        ['2027', '53', '/path/week'],
        ['2021', '53', '/path/week'],
        ['2026', '54', '/path/week'],
        ['2026', '0', '/path/week'],
        ['2026', '5x', '/path/week'],
        ['2026', '-1', '/path/week'],
        ['2026', '1.0', '/path/week'],
        ['2026', '%2B5', '/path/week'],
        ['2026', '123', '/path/week'],
        ['26', '5', '/path/year'],
        ['20260', '5', '/path/year'],
        ['0000', '5', '/path/year'],
        ['y2026', '5', '/path/year'],
        ['2026.0', '5', '/path/year'],
      ];
      for (const [year, week, pointer] of cases) {
        const res = await u.post(`/api/requests/timesheets/${year}/${week}/${kind}`);
        expect(res.status, `${kind} ${year}/${week}`).toBe(422);
        expect(res.body.code).toBe('validation');
        expect(res.body.errors).toEqual([{ pointer, message: expect.any(String) }]);
      }
    }
  });

  it('the payload of a week request is its year and week', async () => {
    const w = await world(h);
    const created = (await as(h, w.ws, w.user).post('/api/requests/timesheets/2026/7/unlock')).body;
    const read = await as(h, w.ws, w.user).get(`/api/requests/${created.id}`);
    expect(read.body).toEqual({ ...created, type: 'timesheetUnlock', year: 2026, week: 7 });
  });
});

describeEachStore('Requests: reading', (h) => {
  it('GET /requests: an administrator sees every request, a User their own, id-keyed in creation order with type and payload', async () => {
    const w = await world(h);
    const kinds = await oneOfEachKind(h, w);
    const mine = (await as(h, w.ws, w.other).post('/api/requests/projects/request-assignment')).body;
    const all = await as(h, w.ws).get('/api/requests');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual([...kinds.map((k) => k.id), mine.id]);
    const [roleChange, assignment, projectAssignment, impersonation, unlock, approval] = kinds.map((k) => all.body[k.id]);
    const base = { status: 'PENDING', createdAt: expect.stringMatching(ISO), resolvedAt: null, resolvedBy: null };
    expect(roleChange).toEqual({
      id: kinds[0].id, type: 'roleChange', ...base, createdBy: w.user.userId,
      projectId: w.project.id, memberId: w.member.id, role: 'Administrator',
    });
    expect(assignment).toEqual({
      id: kinds[1].id, type: 'assignment', ...base, createdBy: w.user.userId, projectId: w.project.id, userIds: [w.other.userId],
    });
    expect(projectAssignment).toEqual({ id: kinds[2].id, type: 'projectAssignment', ...base, createdBy: w.user.userId });
    // Made with the CLI: no createdBy, and the reason is support's, not part of the record.
    expect(impersonation).toEqual({ id: kinds[3].id, type: 'impersonation', ...base });
    expect(unlock).toEqual({ id: kinds[4].id, type: 'timesheetUnlock', ...base, createdBy: w.user.userId, year: 2026, week: 27 });
    expect(approval).toEqual({ id: kinds[5].id, type: 'timesheetApproval', ...base, createdBy: w.user.userId, year: 2026, week: 27 });

    const own = await as(h, w.ws, w.other).get('/api/requests');
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ [mine.id]: { ...mine, type: 'projectAssignment' } });
  });

  it('GET /requests/{requestId}: a User reads their own; another user\'s, an unknown or another workspace\'s id is 404', async () => {
    const w = await world(h);
    const created = (await as(h, w.ws, w.user).post('/api/requests/projects/request-assignment')).body;
    expect((await as(h, w.ws, w.user).get(`/api/requests/${created.id}`)).body).toEqual({ ...created, type: 'projectAssignment' });
    expect((await as(h, w.ws).get(`/api/requests/${created.id}`)).status).toBe(200);
    for (const res of [
      await as(h, w.ws, w.other).get(`/api/requests/${created.id}`),
      await as(h, w.ws).get('/api/requests/does-not-exist'),
      await as(h, await h.workspace()).get(`/api/requests/${created.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not-found');
    }
  });

  it('deleting a user deletes their requests', async () => {
    const w = await world(h);
    const created = (await as(h, w.ws, w.other).post('/api/requests/projects/request-assignment')).body;
    expect((await as(h, w.ws).delete(`/api/users/${w.other.userId}`)).status).toBe(200);
    expect((await as(h, w.ws).get(`/api/requests/${created.id}`)).status).toBe(404);
    expect(Object.keys((await as(h, w.ws).get('/api/requests')).body)).not.toContain(created.id);
  });
});

describeEachStore('Requests: resolution rules', (h) => {
  it('only administrators resolve: a User is 403 on every resolve route and the request stays PENDING', async () => {
    const w = await world(h);
    for (const kind of await oneOfEachKind(h, w)) {
      const res = await as(h, w.ws, w.user).put(kind.path(kind.id), { status: 'RESOLVED', projectIds: [w.project.id] });
      expect(res.status, kind.path(kind.id)).toBe(403);
      expect(res.body.code).toBe('forbidden');
      expect((await as(h, w.ws).get(`/api/requests/${kind.id}`)).body.status).toBe('PENDING');
    }
  });

  it('status must be RESOLVED or REJECTED: anything else is 422 and changes nothing', async () => {
    const w = await world(h);
    for (const kind of await oneOfEachKind(h, w)) {
      for (const body of [{}, { status: 'PENDING' }, { status: 'resolved' }, { status: 'APPROVED' }, { status: true }]) {
        const res = await as(h, w.ws).put(kind.path(kind.id), body);
        expect(res.status, `${kind.path(kind.id)} ${JSON.stringify(body)}`).toBe(422);
        expect(res.body.errors[0].pointer).toBe('/body/status');
      }
      expect((await as(h, w.ws).get(`/api/requests/${kind.id}`)).body.status).toBe('PENDING');
    }
  });

  it('a request resolved through another kind\'s route is 404, and stays PENDING', async () => {
    const w = await world(h);
    const kinds = await oneOfEachKind(h, w);
    for (const route of kinds) {
      for (const request of kinds) {
        if (request === route) continue;
        const res = await as(h, w.ws).put(route.path(request.id), { status: 'REJECTED' });
        expect(res.status, `${route.path(request.id)}`).toBe(404);
        expect(res.body.code).toBe('not-found');
      }
    }
    for (const request of kinds) expect((await as(h, w.ws).get(`/api/requests/${request.id}`)).body.status).toBe('PENDING');
  });

  it('unknown ids and another workspace\'s requests are 404 on every resolve route', async () => {
    const w = await world(h);
    const stranger = await h.workspace();
    for (const kind of await oneOfEachKind(h, w)) {
      expect((await as(h, w.ws).put(kind.path('nope'), { status: 'REJECTED' })).status).toBe(404);
      expect((await as(h, stranger).put(kind.path(kind.id), { status: 'REJECTED' })).status).toBe(404);
    }
  });

  it('resolving sets status, resolvedAt and resolvedBy; only a PENDING request can be resolved (409 after)', async () => {
    const w = await world(h);
    const kinds = await oneOfEachKind(h, w);
    for (const [index, kind] of kinds.entries()) {
      const status = index % 2 === 0 ? 'REJECTED' : 'RESOLVED';
      const before = new Date().toISOString();
      const res = await as(h, w.ws).put(kind.path(kind.id), { status, projectIds: [w.project.id] });
      const after = new Date().toISOString();
      expect(res.status, kind.path(kind.id)).toBe(200);
      expect(res.body).toEqual({
        id: kind.id,
        status,
        createdAt: expect.stringMatching(ISO),
        ...(kind.path('x') === '/api/requests/x' ? {} : { createdBy: w.user.userId }),
        resolvedAt: expect.stringMatching(ISO),
        resolvedBy: w.ws.admin.userId,
      });
      expect(res.body.resolvedAt >= before && res.body.resolvedAt <= after).toBe(true);
      const read = (await as(h, w.ws).get(`/api/requests/${kind.id}`)).body;
      expect(read).toMatchObject({ status, resolvedAt: res.body.resolvedAt, resolvedBy: w.ws.admin.userId });
      for (const again of ['RESOLVED', 'REJECTED']) {
        const second = await as(h, w.ws).put(kind.path(kind.id), { status: again, projectIds: [w.project.id] });
        expect(second.status).toBe(409);
        expect(second.body.code).toBe('conflict');
      }
      expect((await as(h, w.ws).get(`/api/requests/${kind.id}`)).body).toEqual(read);
    }
  });

  it('two concurrent resolutions of one request: exactly one wins, the others are 409', async () => {
    const w = await world(h);
    const second = await h.user(w.ws, { role: 'Administrator' });
    for (const kind of await oneOfEachKind(h, w)) {
      const results = await Promise.all(
        ['RESOLVED', 'REJECTED', 'RESOLVED', 'REJECTED'].map((status, i) =>
          as(h, w.ws, i % 2 === 0 ? w.ws.admin : second).put(kind.path(kind.id), { status, projectIds: [w.project.id] }),
        ),
      );
      const statuses = results.map((res) => res.status).sort();
      expect(statuses, kind.path(kind.id)).toEqual([200, 409, 409, 409]);
      const winner = results.find((res) => res.status === 200)!;
      expect((await as(h, w.ws).get(`/api/requests/${kind.id}`)).body).toMatchObject({
        status: winner.body.status,
        resolvedBy: winner.body.resolvedBy,
      });
    }
  });

  it('concurrent RESOLVED assignments apply the effect once', async () => {
    const w = await world(h);
    const newcomer = await h.user(w.ws);
    const request = (await as(h, w.ws, w.user).post(`/api/requests/projects/${w.project.id}/members`, { userIds: [newcomer.userId] })).body;
    const results = await Promise.all([1, 2, 3].map(() => as(h, w.ws).put(`/api/requests/${request.id}/projects/members`, { status: 'RESOLVED' })));
    expect(results.map((res) => res.status).sort()).toEqual([200, 409, 409]);
    const members = Object.values((await as(h, w.ws).get(`/api/projects/${w.project.id}/members`)).body) as any[];
    expect(members.filter((m) => m.userId === newcomer.userId)).toHaveLength(1);
  });

  it('the effect and the status change commit together: a RESOLVED project assignment naming a missing project is 422 and changes nothing', async () => {
    const w = await world(h);
    const second = (await as(h, w.ws).post('/api/projects', { name: 'Gemini' })).body;
    const request = (await as(h, w.ws, w.other).post('/api/requests/projects/request-assignment')).body;
    const res = await as(h, w.ws).put(`/api/requests/${request.id}/projects/assign`, {
      status: 'RESOLVED',
      projectIds: [second.id, 'no-such-project'],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ pointer: '/body/projectIds/1', message: expect.any(String) }]);
    expect((await as(h, w.ws).get(`/api/requests/${request.id}`)).body).toEqual({ ...request, type: 'projectAssignment' });
    const members = Object.values((await as(h, w.ws).get(`/api/projects/${second.id}/members`)).body) as any[];
    expect(members.map((m) => m.userId)).toEqual([w.ws.admin.userId]);
    // Still PENDING, so it can be resolved properly afterwards.
    expect((await as(h, w.ws).put(`/api/requests/${request.id}/projects/assign`, { status: 'RESOLVED', projectIds: [second.id] })).status).toBe(200);
  });
});
