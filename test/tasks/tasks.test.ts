import { expect, it } from 'vitest';
import { changesSince, feedEnd } from '../changes/feed-support.js';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok } from '../support/harness.js';
import { expectDocumented } from '../support/tracking.js';

const tasksOf = (projectId: string) => `/api/projects/${projectId}/tasks`;

describeEachStore('Tasks (docs/rules.md §6 Tasks)', (h) => {
  it('documents its five operations in the OpenAPI document', async () => {
    await expectDocumented(h, [
      ['get', '/projects/{projectId}/tasks', 'listProjectTasks', []],
      ['post', '/projects/{projectId}/tasks', 'createProjectTask', [403, 409, 422]],
      ['get', '/projects/{projectId}/tasks/{taskId}', 'getProjectTask', []],
      ['put', '/projects/{projectId}/tasks/{taskId}', 'updateProjectTask', [403, 409, 422]],
      ['delete', '/projects/{projectId}/tasks/{taskId}', 'deleteProjectTask', [403]],
    ]);
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(Object.keys(doc.components.schemas.Task.properties)).toEqual(['id', 'projectId', 'name', 'archived', 'billable']);
  });

  it('a task is {id, projectId, name, archived, billable}: trimmed name, unarchived, billable null unless given; server-owned fields are ignored', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws);
    const other = await make.project(h, ws);
    const created = await ok(as(h, ws).post(tasksOf(project.id), { name: '  Design  ', id: 'mine', projectId: other.id, archived: true }));
    expect(created).toEqual({ id: expect.any(String), projectId: project.id, name: 'Design', archived: false, billable: null });
    expect(created.id).not.toBe('mine');
    expect(await ok(as(h, ws).post(tasksOf(project.id), { name: 'Billed', billable: true }))).toMatchObject({ billable: true });
    expect(await ok(as(h, ws).post(tasksOf(project.id), { name: 'Free', billable: false }))).toMatchObject({ billable: false });
    expect(await ok(as(h, ws).get(`${tasksOf(project.id)}/${created.id}`))).toEqual(created);
    expect(await ok(as(h, ws).get(tasksOf(other.id)))).toEqual({});
  });

  it('names are 1–200 characters once trimmed (422 at /body/name); billable must be a boolean or null (422 at /body/billable)', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws);
    for (const name of ['   ', '', 'x'.repeat(201)]) {
      const res = await as(h, ws).post(tasksOf(project.id), { name });
      expect([res.status, res.body.errors?.[0].pointer], name).toEqual([422, '/body/name']);
    }
    expect((await as(h, ws).post(tasksOf(project.id), {})).body.errors[0].pointer).toBe('/body/name');
    const bad = await as(h, ws).post(tasksOf(project.id), { name: 'Ok', billable: 'yes' });
    expect([bad.status, bad.body.errors[0].pointer]).toEqual([422, '/body/billable']);
    const task = await make.task(h, ws, { project });
    const blank = await as(h, ws).put(`${tasksOf(project.id)}/${task.id}`, { name: ' ' });
    expect([blank.status, blank.body.errors[0].pointer]).toEqual([422, '/body/name']);
    expect((await ok(as(h, ws).post(tasksOf(project.id), { name: 'y'.repeat(200) }))).name).toHaveLength(200);
    expect(Object.keys(await ok(as(h, ws).get(tasksOf(project.id))))).toHaveLength(2);
  });

  it('names are unique within the project regardless of case (409 on create and rename), not across projects', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws);
    const other = await make.project(h, ws);
    await make.task(h, ws, { project, name: 'Design', archived: true });
    const dup = await as(h, ws).post(tasksOf(project.id), { name: ' DESIGN ' });
    expect([dup.status, dup.body.code]).toEqual([409, 'conflict']);
    await make.task(h, ws, { project, name: 'STRASSE' });
    expect((await as(h, ws).post(tasksOf(project.id), { name: 'Straße' })).status).toBe(409);
    await make.task(h, ws, { project, name: 'Äpfel' });
    expect((await as(h, ws).post(tasksOf(project.id), { name: 'äpfel' })).status).toBe(409);
    const review = await make.task(h, ws, { project, name: 'Review' });
    expect((await as(h, ws).put(`${tasksOf(project.id)}/${review.id}`, { name: 'design' })).status).toBe(409);
    expect((await ok(as(h, ws).put(`${tasksOf(project.id)}/${review.id}`, { name: 'REVIEW' }))).name).toBe('REVIEW');
    expect(await make.task(h, ws, { project: other, name: 'Design' })).toMatchObject({ projectId: other.id, name: 'Design' });
  });

  it('lets one of three concurrent creations of one name through (the unique index decides)', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws);
    const results = await Promise.all(['Race', 'race', 'RACE'].map((name) => as(h, ws).post(tasksOf(project.id), { name })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(Object.keys(await ok(as(h, ws).get(tasksOf(project.id))))).toHaveLength(1);
  });

  it('PUT changes any of name, archived and billable and keeps the others; billable null hands it back to the project', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws);
    const task = await make.task(h, ws, { project, name: 'Design', billable: true });
    const url = `${tasksOf(project.id)}/${task.id}`;
    expect(await ok(as(h, ws).put(url, { archived: true }))).toEqual({ ...task, archived: true });
    expect(await ok(as(h, ws).put(url, { billable: null, name: 'Design 2' }))).toEqual({ ...task, name: 'Design 2', archived: true, billable: null });
    expect(await ok(as(h, ws).put(url, { billable: false, archived: false }))).toEqual({ ...task, name: 'Design 2', billable: false });
    expect(await ok(as(h, ws).get(url))).toEqual({ ...task, name: 'Design 2', billable: false });
    expect((await as(h, ws).put(`${tasksOf(project.id)}/unknown`, { archived: true })).status).toBe(404);
  });

  it('GET lists the project\'s tasks as an ID-keyed map, archived ones included, in creation order', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws);
    const a = await make.task(h, ws, { project, name: 'A' });
    const b = await make.task(h, ws, { project, name: 'B', archived: true });
    const c = await make.task(h, ws, { project, name: 'C' });
    await make.task(h, ws, { project: await make.project(h, ws), name: 'Elsewhere' });
    const listed = await ok(as(h, ws).get(tasksOf(project.id)));
    expect(listed).toEqual({ [a.id]: a, [b.id]: b, [c.id]: c });
    expect(Object.keys(listed)).toEqual([a.id, b.id, c.id]);
  });

  it('whoever may read the project reads its tasks; a User of no (or an archived) membership gets 404', async () => {
    const ws = await h.workspace();
    const member = await h.user(ws);
    const left = await h.user(ws);
    const outsider = await h.user(ws);
    const project = await make.project(h, ws);
    await make.member(h, ws, { project, user: member });
    await make.member(h, ws, { project, user: left, archived: true });
    const task = await make.task(h, ws, { project });
    expect(await ok(as(h, ws, member).get(tasksOf(project.id)))).toEqual({ [task.id]: task });
    expect(await ok(as(h, ws, member).get(`${tasksOf(project.id)}/${task.id}`))).toEqual(task);
    for (const user of [left, outsider]) {
      expect((await as(h, ws, user).get(tasksOf(project.id))).status).toBe(404);
      expect((await as(h, ws, user).get(`${tasksOf(project.id)}/${task.id}`)).status).toBe(404);
      expect((await as(h, ws, user).post(tasksOf(project.id), { name: 'Mine' })).status).toBe(404);
      expect((await as(h, ws, user).delete(`${tasksOf(project.id)}/${task.id}`)).status).toBe(404);
    }
  });

  it('administrators and the project\'s admins write tasks; a plain member gets 403 and changes nothing', async () => {
    const ws = await h.workspace();
    const member = await h.user(ws);
    const projectAdmin = await h.user(ws);
    const project = await make.project(h, ws);
    await make.member(h, ws, { project, user: member });
    await make.member(h, ws, { project, user: projectAdmin, role: 'Administrator' });
    const task = await make.task(h, ws, { project, name: 'Design' });
    const url = `${tasksOf(project.id)}/${task.id}`;
    expect((await as(h, ws, member).post(tasksOf(project.id), { name: 'Mine' })).status).toBe(403);
    expect((await as(h, ws, member).put(url, { name: 'Mine' })).status).toBe(403);
    expect((await as(h, ws, member).delete(url)).status).toBe(403);
    expect(await ok(as(h, ws).get(tasksOf(project.id)))).toEqual({ [task.id]: task });

    const made = await make.task(h, ws, { project, by: projectAdmin, name: 'By the project admin' });
    expect(await ok(as(h, ws, projectAdmin).put(`${tasksOf(project.id)}/${made.id}`, { archived: true }))).toEqual({ ...made, archived: true });
    expect(await ok(as(h, ws, projectAdmin).delete(url))).toEqual({});
    const elsewhere = await make.project(h, ws);
    await make.member(h, ws, { project: elsewhere, user: projectAdmin });
    expect((await as(h, ws, projectAdmin).post(tasksOf(elsewhere.id), { name: 'Not theirs' })).status).toBe(403);
  });

  it('a task id under another project, another workspace\'s project or an unknown project is 404', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const project = await make.project(h, ws);
    const second = await make.project(h, ws);
    const task = await make.task(h, ws, { project });
    for (const url of [`${tasksOf(second.id)}/${task.id}`, `${tasksOf('unknown')}/${task.id}`]) {
      expect((await as(h, ws).get(url)).status).toBe(404);
      expect((await as(h, ws).put(url, { name: 'Moved' })).status).toBe(404);
      expect((await as(h, ws).delete(url)).status).toBe(404);
    }
    expect((await as(h, ws).get(tasksOf('unknown'))).status).toBe(404);
    expect((await as(h, ws).post(tasksOf('unknown'), { name: 'Nowhere' })).status).toBe(404);
    const theirs = await make.project(h, other);
    const theirTask = await make.task(h, other, { project: theirs });
    expect((await as(h, ws).get(`${tasksOf(theirs.id)}/${theirTask.id}`)).status).toBe(404);
    expect((await as(h, ws).get(tasksOf(theirs.id))).status).toBe(404);
    expect((await as(h, ws).post(tasksOf(theirs.id), { name: 'Into theirs' })).status).toBe(404);
    expect(await ok(as(h, ws).get(`${tasksOf(project.id)}/${task.id}`))).toEqual(task);
    expect(await ok(as(h, other).get(tasksOf(theirs.id)))).toEqual({ [theirTask.id]: theirTask });
  });

  it('deleting a task is permanent; a second deletion is 404', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws);
    const task = await make.task(h, ws, { project });
    const kept = await make.task(h, ws, { project });
    expect(await ok(as(h, ws).delete(`${tasksOf(project.id)}/${task.id}`))).toEqual({});
    expect((await as(h, ws).get(`${tasksOf(project.id)}/${task.id}`)).status).toBe(404);
    expect((await as(h, ws).delete(`${tasksOf(project.id)}/${task.id}`)).status).toBe(404);
    expect(await ok(as(h, ws).get(tasksOf(project.id)))).toEqual({ [kept.id]: kept });
  });

  it('deleting a project deletes its tasks, with the one project.deleted event as for its members', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws);
    const task = await make.task(h, ws, { project });
    const start = await feedEnd(h, ws);
    await ok(as(h, ws).delete(`/api/projects/${project.id}`));
    expect(await changesSince(h, ws, start)).toEqual([['project.deleted', { id: project.id }]]);
    expect((await as(h, ws).get(`${tasksOf(project.id)}/${task.id}`)).status).toBe(404);
    expect(await h.app.db.selectFrom('tasks').select('id').where('id', '=', task.id).execute()).toEqual([]);
  });

  it('a creation racing its project\'s deletion ends as a 404 or a task gone with the project, never a 500', async () => {
    const ws = await h.workspace();
    for (let i = 0; i < 5; i++) {
      const project = await make.project(h, ws);
      const [created, deleted] = await Promise.all([
        as(h, ws).post(tasksOf(project.id), { name: 'Late' }),
        as(h, ws).delete(`/api/projects/${project.id}`),
      ]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(created.status);
      expect(await h.app.db.selectFrom('tasks').select('id').where('project_id', '=', project.id).execute()).toEqual([]);
    }
  });

  it('records task.created, task.updated and task.deleted in the change feed; a refused write leaves no event', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws);
    const start = await feedEnd(h, ws);
    const task = await make.task(h, ws, { project, name: 'Design' });
    const url = `${tasksOf(project.id)}/${task.id}`;
    const renamed = await ok(as(h, ws).put(url, { name: 'Design 2' }));
    const archived = await ok(as(h, ws).put(url, { archived: true }));
    expect((await as(h, ws).post(tasksOf(project.id), { name: 'design 2' })).status).toBe(409);
    await ok(as(h, ws).delete(url));
    expect(await changesSince(h, ws, start)).toEqual([
      ['task.created', task],
      ['task.updated', renamed],
      ['task.updated', archived],
      ['task.deleted', { id: task.id }],
    ]);
  });

  it('a User reads the task events of the projects they are an unarchived member of, and no others', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const theirs = await make.project(h, ws);
    const notTheirs = await make.project(h, ws);
    await make.member(h, ws, { project: theirs, user });
    const start = await feedEnd(h, ws);
    const task = await make.task(h, ws, { project: theirs });
    const hidden = await make.task(h, ws, { project: notTheirs });
    await ok(as(h, ws).delete(`${tasksOf(theirs.id)}/${task.id}`));
    await ok(as(h, ws).delete(`${tasksOf(notTheirs.id)}/${hidden.id}`));
    const taskEvents = async () => (await changesSince(h, ws, start, user)).filter(([type]) => type.startsWith('task.'));
    expect(await taskEvents()).toEqual([
      ['task.created', task],
      ['task.deleted', { id: task.id }],
    ]);
    expect((await changesSince(h, ws, start)).filter(([type]) => type.startsWith('task.'))).toHaveLength(4);
    const outsider = await h.user(ws);
    expect((await changesSince(h, ws, start, outsider)).filter(([type]) => type.startsWith('task.'))).toEqual([]);
  });

  it('webhooks may subscribe to the task events (they follow the feed)', async () => {
    const ws = await h.workspace();
    const events = ['task.created', 'task.updated', 'task.deleted'];
    const webhook = await ok(as(h, ws).post('/api/webhooks', { url: 'https://hooks.example.com/tasks', events }));
    expect(webhook.events).toEqual(events);
  });
});
