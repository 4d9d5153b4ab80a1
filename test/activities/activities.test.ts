import { expect, it } from 'vitest';
import { as, describeEachStore, type Harness, type TestUser } from '../support/harness.js';
import { newId } from '../support/src.js';
import { activityAnswer, expectDocumented, tracking } from '../support/tracking.js';

const running = async (h: Harness, user: TestUser) =>
  h.app.db.selectFrom('activities').select(['id', 'started_at']).where('user_id', '=', user.userId).where('ended_at', 'is', null).execute();

describeEachStore('Activities', (h) => {
  it('documents its five operations in the OpenAPI document', async () => {
    await expectDocumented(h, [
      ['get', '/activities', 'listActivities', []],
      ['post', '/activities', 'createActivity', [409, 422]],
      ['get', '/activities/{activityId}', 'getActivity', []],
      ['put', '/activities/{activityId}', 'updateActivity', [403, 409, 422]],
      ['delete', '/activities/{activityId}', 'deleteActivity', [403]],
    ]);
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(doc.components.schemas.Activity).toBeDefined();
  });

  it('records time for the caller with exactly the Activity record\'s fields, instants out in UTC with milliseconds', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).post('/api/activities', {
      name: '  Writing ',
      startedAt: '2026-07-04T11:00:00+02:00',
      endedAt: '2026-07-04T05:30:00.25-04:00',
      userId: ws.admin.userId,
      id: 'client-id',
      createdAt: '2000-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      activityAnswer({
        id: expect.any(String),
        name: 'Writing',
        billable: false,
        startedAt: '2026-07-04T09:00:00.000Z',
        endedAt: '2026-07-04T09:30:00.250Z',
        projectId: null,
        userId: user.userId,
      }),
    );
    expect(res.body.id).not.toBe('client-id');
    expect((await as(h, ws, user).get(`/api/activities/${res.body.id}`)).body).toEqual(res.body);
  });

  it('answers 422 for instants without an offset, a missing endedAt without pending, and endedAt before startedAt', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const cases: [Record<string, unknown>, string][] = [
      [{ startedAt: '2026-07-04T09:00:00', endedAt: '2026-07-04T10:00:00Z' }, '/body/startedAt'],
      [{ startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00' }, '/body/endedAt'],
      [{ startedAt: '2026-07-04' }, '/body/startedAt'],
      [{ startedAt: '2026-07-04T09:00:00Z' }, '/body/endedAt'],
      [{ startedAt: '2026-07-04T09:00:00Z', endedAt: null }, '/body/endedAt'],
      [{ startedAt: '2026-07-04T09:00:00Z', pending: false }, '/body/endedAt'],
      [{ startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T08:59:59.999Z' }, '/body/endedAt'],
      [{ startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00Z', billable: 'true' }, '/body/billable'],
      [{ startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00Z', pending: 'true' }, '/body/pending'],
      [{ startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00Z', name: ' ' }, '/body/name'],
      [{ startedAt: '2026-02-30T09:00:00Z', endedAt: '2026-07-04T10:00:00Z' }, '/body/startedAt'],
    ];
    for (const [body, pointer] of cases) {
      const res = await api.post('/api/activities', { name: 'Work', ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].pointer, JSON.stringify(body)).toBe(pointer);
    }
    const zero = await api.post('/api/activities', { name: 'Zero', startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T09:00:00Z' });
    expect(zero.status).toBe(200);
  });

  it('opens a timer with pending: true and no endedAt; pending with an endedAt records closed time', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const timer = await t.timer(user, '2026-07-04T09:00:00Z');
    expect(timer).toMatchObject({ startedAt: '2026-07-04T09:00:00.000Z', endedAt: null, userId: user.userId });
    const explicitNull = await t.ok(t.api(ws.admin).post('/api/activities', { name: 'T', startedAt: '2026-07-04T09:00:00Z', endedAt: null, pending: true }));
    expect(explicitNull.endedAt).toBeNull();
    const closed = await t.activity(user, { pending: true, startedAt: '2026-07-04T10:00:00Z', endedAt: '2026-07-04T11:00:00Z' });
    expect(closed.endedAt).toBe('2026-07-04T11:00:00.000Z');
    expect((await running(h, user)).map((r) => r.id)).toEqual([timer.id]);
  });

  it('closes the running timer at the new timer\'s start, or at its own start when that is later', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const first = await t.timer(user, '2026-07-04T09:00:00Z');
    const second = await t.timer(user, '2026-07-04T10:15:00+00:00');
    expect((await t.ok(t.api(user).get(`/api/activities/${first.id}`))).endedAt).toBe('2026-07-04T10:15:00.000Z');
    // A timer started earlier than the running one: the running one closes at its own start.
    const third = await t.timer(user, '2026-07-04T08:00:00Z');
    expect((await t.ok(t.api(user).get(`/api/activities/${second.id}`))).endedAt).toBe('2026-07-04T10:15:00.000Z');
    expect((await running(h, user)).map((r) => r.id)).toEqual([third.id]);
    // Closed time recorded meanwhile leaves the timer running; other users' timers are untouched.
    await t.activity(user, { startedAt: '2026-07-04T12:00:00Z', endedAt: '2026-07-04T13:00:00Z' });
    const otherTimer = await t.timer(ws.admin, '2026-07-04T12:00:00Z');
    expect((await running(h, user)).map((r) => r.id)).toEqual([third.id]);
    expect((await running(h, ws.admin)).map((r) => r.id)).toEqual([otherTimer.id]);
  });

  it('leaves exactly one running timer when one user starts two at once (both requests succeed)', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const api = as(h, ws, user);
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([
        api.post('/api/activities', { name: 'A', startedAt: `2026-07-0${round + 1}T09:00:00Z`, pending: true }),
        api.post('/api/activities', { name: 'B', startedAt: `2026-07-0${round + 1}T09:00:01Z`, pending: true }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      expect(await running(h, user)).toHaveLength(1);
    }
    const all = await h.app.db.selectFrom('activities').select('ended_at').where('user_id', '=', user.userId).execute();
    expect(all).toHaveLength(6);
  });

  it('has the database refuse a second running timer of one user', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const row = (ended: string | null) => ({
      id: newId(),
      organization_id: ws.organizationId,
      user_id: user.userId,
      project_id: null,
      name: 'x',
      billable: 0 as const,
      started_at: '2026-07-04T09:00:00.000Z',
      ended_at: ended,
      created_at: '2026-07-04T09:00:00.000Z',
      updated_at: '2026-07-04T09:00:00.000Z',
    });
    await h.app.db.insertInto('activities').values(row(null)).execute();
    await h.app.db.insertInto('activities').values(row('2026-07-04T10:00:00.000Z')).execute();
    await expect(h.app.db.insertInto('activities').values(row(null)).execute()).rejects.toMatchObject({
      code: expect.stringMatching(/^(23505|SQLITE_CONSTRAINT_UNIQUE)$/),
    });
  });

  it('closes a timer with PUT endedAt and reopens it with endedAt null, 409 while another timer runs', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const timer = await t.timer(user, '2026-07-04T09:00:00Z');
    const url = `/api/activities/${timer.id}`;
    const closed = await t.ok(t.api(user).put(url, { endedAt: '2026-07-04T12:00:00+01:00' }));
    expect(closed).toEqual({ ...timer, endedAt: '2026-07-04T11:00:00.000Z' });
    expect((await t.ok(t.api(user).put(url, { endedAt: null }))).endedAt).toBeNull();
    await t.ok(t.api(user).put(url, { endedAt: '2026-07-04T11:00:00Z' }));

    const other = await t.timer(user, '2026-07-04T13:00:00Z');
    const reopen = await t.api(user).put(url, { endedAt: null });
    expect(reopen.status).toBe(409);
    expect(reopen.body.code).toBe('conflict');
    expect((await t.ok(t.api(user).get(url))).endedAt).toBe('2026-07-04T11:00:00.000Z');
    expect((await running(h, user)).map((r) => r.id)).toEqual([other.id]);
  });

  it('updates name, startedAt, endedAt, billable and projectId; keeps the order of the instants (422)', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const project = await t.project({ billable: true });
    await t.member(project.id, user);
    const activity = await t.activity(user);
    const url = `/api/activities/${activity.id}`;
    const updated = await t.ok(
      t.api(user).put(url, {
        name: 'Review',
        startedAt: '2026-07-04T08:00:00Z',
        billable: true,
        projectId: project.id,
        userId: ws.admin.userId,
        id: 'x',
      }),
    );
    expect(updated).toEqual({ ...activity, name: 'Review', startedAt: '2026-07-04T08:00:00.000Z', billable: true, projectId: project.id });
    expect((await t.ok(t.api(user).put(url, { projectId: null }))).projectId).toBeNull();

    const late = await t.api(user).put(url, { startedAt: '2026-07-04T10:00:00.001Z' });
    expect(late.status).toBe(422);
    expect(late.body.errors[0].pointer).toBe('/body/startedAt');
    const early = await t.api(user).put(url, { endedAt: '2026-07-04T07:59:00Z' });
    expect(early.status).toBe(422);
    expect(early.body.errors[0].pointer).toBe('/body/endedAt');
    expect((await t.api(user).put(url, { startedAt: '2026-07-04T08:00:00' })).status).toBe(422);
    expect((await t.ok(t.api(user).get(url))).startedAt).toBe('2026-07-04T08:00:00.000Z');
  });

  it('takes projectId only for an unarchived project the owner is a member of (admins: any unarchived project)', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const t = tracking(h, ws);
    const [member, outsider] = await Promise.all([h.user(ws), h.user(ws)]);
    const project = await t.project({ billable: true });
    const archived = await t.project();
    const notMine = await t.project();
    await t.member(project.id, member);
    await t.member(archived.id, member);
    await t.ok(t.api().put(`/api/projects/${archived.id}`, { archived: true }));
    const foreign = await tracking(h, other).project();

    for (const projectId of [archived.id, notMine.id, foreign.id, 'no-such-project']) {
      const res = await t.api(member).post('/api/activities', {
        name: 'x',
        startedAt: '2026-07-04T09:00:00Z',
        endedAt: '2026-07-04T10:00:00Z',
        projectId,
      });
      expect(res.status, projectId).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/body/projectId');
    }
    expect((await t.activity(member, { projectId: project.id })).projectId).toBe(project.id);
    // An administrator may book on any unarchived project of the workspace, member or not.
    expect((await t.activity(ws.admin, { projectId: notMine.id })).projectId).toBe(notMine.id);
    expect((await t.api().post('/api/activities', { name: 'x', startedAt: '2026-07-04T09:00:00Z', pending: true, projectId: archived.id })).status).toBe(422);

    // Moving an activity checks its owner, not the admin making the change.
    const own = await t.activity(outsider);
    const move = await t.api().put(`/api/activities/${own.id}`, { projectId: project.id });
    expect(move.status).toBe(422);
    expect(move.body.errors[0].pointer).toBe('/body/projectId');
  });

  it('defaults billable to the project\'s (false without a project); an explicit billable wins', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const billable = await t.project({ billable: true });
    const unbillable = await t.project({ billable: false });
    expect((await t.activity(ws.admin, { projectId: billable.id })).billable).toBe(true);
    expect((await t.activity(ws.admin, { projectId: unbillable.id })).billable).toBe(false);
    expect((await t.activity(ws.admin, { projectId: billable.id, billable: false })).billable).toBe(false);
    expect((await t.activity(ws.admin, { projectId: unbillable.id, billable: true })).billable).toBe(true);
    expect((await t.activity(ws.admin)).billable).toBe(false);
    expect((await t.activity(ws.admin, { projectId: null, billable: true })).billable).toBe(true);
  });

  it('shows a User their own activities and those on projects they administer; others\' are 404', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const [lead, worker, peer] = await Promise.all([h.user(ws), h.user(ws), h.user(ws)]);
    const project = await t.project();
    await t.member(project.id, lead, { role: 'Administrator' });
    await t.member(project.id, worker);
    await t.member(project.id, peer);
    const onProject = await t.activity(worker, { projectId: project.id });
    const offProject = await t.activity(worker);

    expect(await t.ok(t.api(worker).get(`/api/activities/${onProject.id}`))).toEqual(onProject);
    expect(await t.ok(t.api(lead).get(`/api/activities/${onProject.id}`))).toEqual(onProject);
    expect(await t.ok(t.api().get(`/api/activities/${offProject.id}`))).toEqual(offProject);
    expect((await t.api(lead).get(`/api/activities/${offProject.id}`)).status).toBe(404);
    expect((await t.api(peer).get(`/api/activities/${onProject.id}`)).status).toBe(404);
    expect((await t.api(peer).put(`/api/activities/${onProject.id}`, { name: 'x' })).status).toBe(404);
    expect((await t.api(peer).delete(`/api/activities/${onProject.id}`)).status).toBe(404);
  });

  it('lets only the owner or an admin change or delete an activity (a project admin who sees it: 403)', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const [lead, worker] = await Promise.all([h.user(ws), h.user(ws)]);
    const project = await t.project();
    await t.member(project.id, lead, { role: 'Administrator' });
    await t.member(project.id, worker);
    const activity = await t.activity(worker, { projectId: project.id });
    const url = `/api/activities/${activity.id}`;

    expect((await t.api(lead).put(url, { name: 'Lead edit' })).status).toBe(403);
    expect((await t.api(lead).delete(url)).status).toBe(403);
    expect((await t.ok(t.api(worker).put(url, { name: 'Own edit' }))).name).toBe('Own edit');
    const byAdmin = await t.ok(t.api().put(url, { name: 'Admin edit' }));
    expect(byAdmin).toEqual({ ...activity, name: 'Admin edit' });
    expect(await t.ok(t.api().delete(url))).toEqual({});
    expect((await t.api(worker).get(url)).status).toBe(404);
    expect((await t.api(worker).delete(url)).status).toBe(404);

    const own = await t.activity(worker);
    expect(await t.ok(t.api(worker).delete(`/api/activities/${own.id}`))).toEqual({});
    expect((await t.api().get(`/api/activities/${own.id}`)).status).toBe(404);
  });

  it('answers 404 for another workspace\'s activity, whatever the caller\'s role', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const activity = await tracking(h, ws).activity(ws.admin);
    const outsider = as(h, other);
    expect((await outsider.get(`/api/activities/${activity.id}`)).status).toBe(404);
    expect((await outsider.put(`/api/activities/${activity.id}`, { name: 'x' })).status).toBe(404);
    expect((await outsider.delete(`/api/activities/${activity.id}`)).status).toBe(404);
    expect(Object.keys((await outsider.get('/api/activities')).body)).toEqual([]);
    expect(Object.keys((await outsider.get('/api/activities', undefined, { query: { userId: ws.admin.userId } })).body)).toEqual([]);
    expect((await as(h, ws).get(`/api/activities/${activity.id}`)).body).toEqual(activity);
    expect((await as(h, ws).get('/api/activities/malformed%20id')).status).toBe(404);
  });
});
