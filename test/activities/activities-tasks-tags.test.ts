import { expect, it } from 'vitest';
import { changesSince, feedEnd } from '../changes/feed-support.js';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { activityAnswer } from '../support/tracking.js';

const times = { startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00Z' };

/** A project with a task, and two tags: what most cases below book on. */
async function booking(h: Harness, ws: TestWorkspace, project: Record<string, unknown> = {}) {
  const p = await make.project(h, ws, project);
  const task = await make.task(h, ws, { project: p, name: 'Design' });
  const bug = await make.tag(h, ws, { name: 'bug' });
  const meeting = await make.tag(h, ws, { name: 'meeting' });
  return { project: p, task, bug, meeting };
}

const problemAt = (res: { status: number; body: any }) => [res.status, res.body.errors?.[0]?.pointer];

describeEachStore('Activities: task and tags (docs/rules.md §6 Activities: task and tags)', (h) => {
  it('an activity carries taskId and tagIds in POST, GET one, the listing and PUT; repeats in tagIds are collapsed in the order first given', async () => {
    const ws = await h.workspace();
    const { project, task, bug, meeting } = await booking(h, ws);
    const api = as(h, ws);
    const created = await ok(
      api.post('/api/activities', { name: 'Review', ...times, projectId: project.id, taskId: task.id, tagIds: [meeting.id, bug.id, meeting.id] }),
    );
    const expected = activityAnswer({
      id: created.id,
      name: 'Review',
      billable: false,
      startedAt: '2026-07-04T09:00:00.000Z',
      endedAt: '2026-07-04T10:00:00.000Z',
      projectId: project.id,
      userId: ws.admin.userId,
      taskId: task.id,
      tagIds: [meeting.id, bug.id],
    });
    expect(created).toEqual(expected);
    expect(await ok(api.get(`/api/activities/${created.id}`))).toEqual(expected);
    expect((await ok(api.get('/api/activities')))[created.id]).toEqual(expected);
    const changed = await ok(api.put(`/api/activities/${created.id}`, { tagIds: [bug.id], taskId: null }));
    expect(changed).toEqual({ ...expected, tagIds: [bug.id], taskId: null });
    expect((await ok(api.get('/api/activities', undefined, { query: { limit: '10' } })))[created.id]).toEqual(changed);
    const plain = await ok(api.post('/api/activities', { name: 'Plain', ...times }));
    expect([plain.taskId, plain.tagIds]).toEqual([null, []]);
  });

  it('taskId must name an unarchived task of the activity\'s project: unknown, foreign, another project\'s, without a project or archived is 422 at /body/taskId and creates nothing', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const { project, task } = await booking(h, ws);
    const second = await make.project(h, ws);
    const archived = await make.task(h, ws, { project, archived: true });
    const foreignProject = await make.project(h, other);
    const foreign = await make.task(h, other, { project: foreignProject });
    const api = as(h, ws);
    const cases: Array<[string, Record<string, unknown>]> = [
      ['unknown', { projectId: project.id, taskId: '01890000-0000-7000-8000-000000000000' }],
      ['of another workspace', { projectId: project.id, taskId: foreign.id }],
      ['of another project', { projectId: second.id, taskId: task.id }],
      ['without a project', { taskId: task.id }],
      ['archived', { projectId: project.id, taskId: archived.id }],
    ];
    for (const [why, body] of cases) {
      expect(problemAt(await api.post('/api/activities', { name: 'x', ...times, ...body })), why).toEqual([422, '/body/taskId']);
    }
    expect(problemAt(await api.post('/api/activities', { name: 'x', ...times, projectId: project.id, taskId: 7 }))).toEqual([422, '/body/taskId']);
    expect(await ok(api.get('/api/activities'))).toEqual({});
  });

  it('billable left out follows the task\'s billable when it is not null, else the project\'s; a given billable wins', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws, { billable: true });
    const free = await make.task(h, ws, { project, billable: false });
    const inherit = await make.task(h, ws, { project });
    const unbilledProject = await make.project(h, ws, { billable: false });
    const billed = await make.task(h, ws, { project: unbilledProject, billable: true });
    const api = as(h, ws);
    const billableOf = async (body: Record<string, unknown>) => (await ok(api.post('/api/activities', { name: 'x', ...times, ...body }))).billable;
    expect(await billableOf({ projectId: project.id, taskId: free.id })).toBe(false);
    expect(await billableOf({ projectId: project.id, taskId: inherit.id })).toBe(true);
    expect(await billableOf({ projectId: unbilledProject.id, taskId: billed.id })).toBe(true);
    expect(await billableOf({ projectId: unbilledProject.id })).toBe(false);
    expect(await billableOf({ projectId: project.id, taskId: free.id, billable: true })).toBe(true);
  });

  it('a PUT that moves an activity to another project while it keeps the old project\'s task is 422 at /body/taskId and changes nothing; with the new task or null it moves', async () => {
    const ws = await h.workspace();
    const { project, task } = await booking(h, ws);
    const next = await make.project(h, ws);
    const nextTask = await make.task(h, ws, { project: next });
    const api = as(h, ws);
    const activity = await ok(api.post('/api/activities', { name: 'x', ...times, projectId: project.id, taskId: task.id }));
    for (const body of [{ projectId: next.id, name: 'moved' }, { projectId: null }, { projectId: next.id, taskId: task.id }]) {
      expect(problemAt(await api.put(`/api/activities/${activity.id}`, body)), JSON.stringify(body)).toEqual([422, '/body/taskId']);
    }
    expect(await ok(api.get(`/api/activities/${activity.id}`))).toEqual(activity);
    const moved = await ok(api.put(`/api/activities/${activity.id}`, { projectId: next.id, taskId: nextTask.id }));
    expect([moved.projectId, moved.taskId]).toEqual([next.id, nextTask.id]);
    const detached = await ok(api.put(`/api/activities/${activity.id}`, { projectId: null, taskId: null }));
    expect([detached.projectId, detached.taskId]).toEqual([null, null]);
    const setAlone = await ok(api.put(`/api/activities/${activity.id}`, { projectId: project.id }));
    expect(problemAt(await api.put(`/api/activities/${activity.id}`, { taskId: nextTask.id }))).toEqual([422, '/body/taskId']);
    expect((await ok(api.put(`/api/activities/${setAlone.id}`, { taskId: task.id }))).taskId).toBe(task.id);
  });

  it('an archived task or tag already on an activity stays through later writes; a write may not add an archived one (422)', async () => {
    const ws = await h.workspace();
    const { project, task, bug, meeting } = await booking(h, ws);
    const api = as(h, ws);
    const activity = await ok(api.post('/api/activities', { name: 'x', ...times, projectId: project.id, taskId: task.id, tagIds: [bug.id] }));
    await ok(api.put(`/api/projects/${project.id}/tasks/${task.id}`, { archived: true }));
    await ok(api.put(`/api/tags/${bug.id}`, { archived: true }));
    const renamed = await ok(api.put(`/api/activities/${activity.id}`, { name: 'renamed', taskId: task.id, tagIds: [bug.id, meeting.id] }));
    expect([renamed.taskId, renamed.tagIds]).toEqual([task.id, [bug.id, meeting.id]]);
    expect((await ok(api.put(`/api/activities/${activity.id}`, { endedAt: '2026-07-04T11:00:00Z' }))).tagIds).toEqual([bug.id, meeting.id]);
    const fresh = await ok(api.post('/api/activities', { name: 'y', ...times, projectId: project.id }));
    expect(problemAt(await api.put(`/api/activities/${fresh.id}`, { taskId: task.id }))).toEqual([422, '/body/taskId']);
    expect(problemAt(await api.put(`/api/activities/${fresh.id}`, { tagIds: [bug.id] }))).toEqual([422, '/body/tagIds']);
    expect(problemAt(await api.post('/api/activities', { name: 'z', ...times, tagIds: [bug.id] }))).toEqual([422, '/body/tagIds']);
    expect((await ok(api.get(`/api/activities/${fresh.id}`))).tagIds).toEqual([]);
  });

  it('tagIds holds at most 25 distinct tags of the workspace: more, an unknown or a foreign tag, or a malformed list is 422 at /body/tagIds and writes nothing', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const api = as(h, ws);
    const many = [];
    for (let i = 0; i < 26; i++) many.push((await make.tag(h, ws, { name: `t${i}` })).id);
    const foreign = await make.tag(h, other);
    const kept = await ok(api.post('/api/activities', { name: 'x', ...times, tagIds: [...many.slice(0, 25), ...many.slice(0, 25)] }));
    expect(kept.tagIds).toEqual(many.slice(0, 25));
    for (const tagIds of [many, [foreign.id], ['01890000-0000-7000-8000-000000000000'], 'bug']) {
      expect(problemAt(await api.post('/api/activities', { name: 'x', ...times, tagIds })), JSON.stringify(tagIds)).toEqual([422, '/body/tagIds']);
      expect(problemAt(await api.put(`/api/activities/${kept.id}`, { tagIds })), JSON.stringify(tagIds)).toEqual([422, '/body/tagIds']);
    }
    expect(problemAt(await api.post('/api/activities', { name: 'x', ...times, tagIds: [5] }))).toEqual([422, '/body/tagIds/0']);
    expect(Object.keys(await ok(api.get('/api/activities')))).toEqual([kept.id]);
    expect((await ok(api.get(`/api/activities/${kept.id}`))).tagIds).toEqual(many.slice(0, 25));
    expect((await ok(api.put(`/api/activities/${kept.id}`, { tagIds: [] }))).tagIds).toEqual([]);
  });

  it('deleting a tag takes it off every activity; deleting a task keeps its activities\' time with taskId null; deleting a project takes its tasks', async () => {
    const ws = await h.workspace();
    const { project, task, bug, meeting } = await booking(h, ws);
    const user = await make.user(h, ws);
    await make.member(h, ws, { project, user });
    const api = as(h, ws);
    const first = await ok(api.post('/api/activities', { name: 'a', ...times, projectId: project.id, taskId: task.id, tagIds: [bug.id, meeting.id] }));
    const second = await ok(as(h, ws, user).post('/api/activities', { name: 'b', ...times, projectId: project.id, tagIds: [meeting.id, bug.id] }));
    const third = await ok(api.post('/api/activities', { name: 'c', ...times, tagIds: [bug.id] }));
    await ok(api.delete(`/api/tags/${bug.id}`));
    const listed = await ok(api.get('/api/activities'));
    expect([listed[first.id].tagIds, listed[second.id].tagIds, listed[third.id].tagIds]).toEqual([[meeting.id], [meeting.id], []]);
    expect((await ok(as(h, ws, user).get(`/api/activities/${second.id}`))).tagIds).toEqual([meeting.id]);
    expect(Object.keys(await ok(api.get('/api/activities', undefined, { query: { tagId: meeting.id } })))).toEqual([first.id, second.id]);
    await ok(api.delete(`/api/projects/${project.id}/tasks/${task.id}`));
    expect(await ok(api.get(`/api/activities/${first.id}`))).toMatchObject({ taskId: null, projectId: project.id, startedAt: '2026-07-04T09:00:00.000Z' });
    const another = await make.task(h, ws, { project });
    const fourth = await ok(api.post('/api/activities', { name: 'd', ...times, projectId: project.id, taskId: another.id }));
    await ok(api.delete(`/api/projects/${project.id}`));
    expect(await ok(api.get(`/api/activities/${fourth.id}`))).toMatchObject({ projectId: null, taskId: null, endedAt: '2026-07-04T10:00:00.000Z' });
    expect((await api.get(`/api/projects/${project.id}/tasks/${another.id}`)).status).toBe(404);
  });

  it('GET /activities takes projectId, taskId, clientId and tagId, each repeatable (any of its values), combined with each other and with from/to by AND', async () => {
    const ws = await h.workspace();
    const client = await make.client(h, ws);
    const { project, task, bug, meeting } = await booking(h, ws, { clientId: client.id });
    const other = await make.project(h, ws);
    const otherTask = await make.task(h, ws, { project: other });
    const api = as(h, ws);
    const add = async (name: string, body: Record<string, unknown>, day = '04') =>
      (await ok(api.post('/api/activities', { name, startedAt: `2026-07-${day}T09:00:00Z`, endedAt: `2026-07-${day}T10:00:00Z`, ...body }))).id;
    const a = await add('a', { projectId: project.id, taskId: task.id, tagIds: [bug.id] });
    const b = await add('b', { projectId: project.id, tagIds: [meeting.id] }, '05');
    const c = await add('c', { projectId: other.id, taskId: otherTask.id, tagIds: [bug.id, meeting.id] }, '06');
    const d = await add('d', {}, '07');
    const listed = async (query: Record<string, string | string[]>) => Object.keys(await ok(api.get('/api/activities', undefined, { query })));
    expect(await listed({ projectId: project.id })).toEqual([a, b]);
    expect(await listed({ projectId: [project.id, other.id] })).toEqual([a, b, c]);
    expect(await listed({ taskId: task.id })).toEqual([a]);
    expect(await listed({ taskId: [task.id, otherTask.id] })).toEqual([a, c]);
    expect(await listed({ clientId: client.id })).toEqual([a, b]);
    expect(await listed({ tagId: bug.id })).toEqual([a, c]);
    expect(await listed({ tagId: [bug.id, meeting.id] })).toEqual([a, b, c]);
    expect(await listed({ tagId: meeting.id, clientId: client.id })).toEqual([b]);
    expect(await listed({ tagId: bug.id, from: '2026-07-05T00:00:00Z' })).toEqual([c]);
    expect(await listed({ tagId: [bug.id, meeting.id], to: '2026-07-06T00:00:00Z', limit: '1' })).toEqual([a]);
    expect(await listed({ projectId: project.id, taskId: otherTask.id })).toEqual([]);
    expect(await listed({ tagId: bug.id, userId: ws.admin.userId })).toEqual([a, c]);
    expect(d).toBeDefined();
    const foreign = await h.workspace();
    const foreignTag = await make.tag(h, foreign);
    await ok(as(h, foreign).post('/api/activities', { name: 'f', ...times, tagIds: [foreignTag.id] }));
    expect(await listed({ tagId: foreignTag.id })).toEqual([]);
    const many = Array.from({ length: 101 }, () => task.id);
    expect(problemAt(await api.get('/api/activities', undefined, { query: { taskId: many } }))).toEqual([422, '/query/taskId']);
  });

  it('a User\'s filtered listing keeps to what they may see: their own and the projects they administer', async () => {
    const ws = await h.workspace();
    const { project, bug } = await booking(h, ws);
    const user = await make.user(h, ws);
    await make.member(h, ws, { project, user });
    const mine = await ok(as(h, ws, user).post('/api/activities', { name: 'mine', ...times, projectId: project.id, tagIds: [bug.id] }));
    await ok(as(h, ws).post('/api/activities', { name: 'admin', ...times, projectId: project.id, tagIds: [bug.id] }));
    expect(Object.keys(await ok(as(h, ws, user).get('/api/activities', undefined, { query: { tagId: bug.id } })))).toEqual([mine.id]);
    expect(Object.keys(await ok(as(h, ws).get('/api/activities', undefined, { query: { tagId: bug.id } })))).toHaveLength(2);
  });

  it('writes racing the deletion of their tag or task answer 200 or 422, never 500, and no activity keeps the deleted tag or task', async () => {
    const ws = await h.workspace();
    const { project, task, bug, meeting } = await booking(h, ws);
    const api = as(h, ws);
    const writes = Array.from({ length: 12 }, (_, i) =>
      api.post('/api/activities', { name: `w${i}`, ...times, projectId: project.id, taskId: task.id, tagIds: [meeting.id, bug.id] }),
    );
    const [tagGone, taskGone, ...answers] = await Promise.all([
      api.delete(`/api/tags/${bug.id}`),
      api.delete(`/api/projects/${project.id}/tasks/${task.id}`),
      ...writes,
    ]);
    expect([tagGone.status, taskGone.status]).toEqual([200, 200]);
    for (const answer of answers) expect([200, 422]).toContain(answer.status);
    const listed = Object.values(await ok(api.get('/api/activities'))) as Array<{ taskId: string | null; tagIds: string[] }>;
    expect(listed).toHaveLength(answers.filter((answer) => answer.status === 200).length);
    for (const activity of listed) expect([activity.taskId, activity.tagIds]).toEqual([null, [meeting.id]]);
    const byTag = await ok(api.get('/api/activities', undefined, { query: { tagId: meeting.id } }));
    expect(Object.keys(byTag)).toHaveLength(listed.length);
  });

  it('the change feed carries taskId and tagIds in every activity event', async () => {
    const ws = await h.workspace();
    const { project, task, bug } = await booking(h, ws);
    const api = as(h, ws);
    const start = await feedEnd(h, ws);
    const activity = await ok(api.post('/api/activities', { name: 'x', ...times, projectId: project.id, taskId: task.id, tagIds: [bug.id] }));
    await ok(api.put(`/api/activities/${activity.id}`, { tagIds: [] }));
    const events = (await changesSince(h, ws, start)).filter(([type]) => type.startsWith('activity.'));
    expect(events).toEqual([
      ['activity.created', activity],
      ['activity.updated', { ...activity, tagIds: [] }],
    ]);
  });
});
