import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';
import { expectDocumented, tracking } from '../support/tracking.js';

describeEachStore('Projects', (h) => {
  it('documents its five operations in the OpenAPI document', async () => {
    await expectDocumented(h, [
      ['get', '/projects', 'listProjects', []],
      ['post', '/projects', 'createProject', [403, 409, 422]],
      ['get', '/projects/{projectId}', 'getProject', []],
      ['put', '/projects/{projectId}', 'updateProject', [403, 409, 422]],
      ['delete', '/projects/{projectId}', 'deleteProject', [403]],
    ]);
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(doc.components.schemas.Project).toBeDefined();
  });

  it('an admin creates a project with exactly the reference\'s fields; server-owned fields are ignored', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/projects', {
      name: '  Apollo  ',
      billable: true,
      notes: 'Moon',
      id: 'chosen-by-client',
      archived: true,
      createdAt: '2020-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Apollo',
      archived: false,
      billable: true,
      avatar: null,
      notes: 'Moon',
      clientId: null,
      color: '#ef4444',
    });
    expect(res.body.id).not.toBe('chosen-by-client');
    const plain = await as(h, ws).post('/api/projects', { name: 'Plain' });
    expect(plain.body).toEqual({ id: expect.any(String), name: 'Plain', archived: false, billable: false, avatar: null, clientId: null, color: '#f97316' });
  });

  it('makes the creating admin a member with role Administrator, assigned by themself', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const project = await t.project();
    const members = await t.ok(t.api().get(`/api/projects/${project.id}/members`));
    expect(Object.values(members)).toEqual([
      {
        id: expect.any(String),
        projectId: project.id,
        userId: ws.admin.userId,
        role: 'Administrator',
        archived: false,
        assignedBy: ws.admin.userId,
        tags: null,
      },
    ]);
  });

  it('only admins create and delete projects (403 for a User, even a project admin)', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    expect((await t.api(user).post('/api/projects', { name: 'Mine' })).status).toBe(403);
    const project = await t.project();
    await t.member(project.id, user, { role: 'Administrator' });
    expect((await t.api(user).delete(`/api/projects/${project.id}`)).status).toBe(403);
    expect((await t.api().get(`/api/projects/${project.id}`)).status).toBe(200);
  });

  it('rejects blank, missing and mistyped fields with 422', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const blank = await api.post('/api/projects', { name: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.body.errors[0].pointer).toBe('/body/name');
    const missing = await api.post('/api/projects', { billable: true });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].pointer).toBe('/body/name');
    expect((await api.post('/api/projects', { name: 'X', billable: 'true' })).status).toBe(422);
    expect((await api.post('/api/projects', { name: 'x'.repeat(201) })).status).toBe(422);
  });

  it('keeps names unique per workspace, case-insensitively after trimming (409), but not across workspaces', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const api = as(h, ws);
    expect((await api.post('/api/projects', { name: 'Website Relaunch' })).status).toBe(200);
    const dup = await api.post('/api/projects', { name: '  website RELAUNCH ' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('conflict');
    expect((await api.post('/api/projects', { name: 'STRASSE' })).status).toBe(200);
    expect((await api.post('/api/projects', { name: 'Straße' })).status).toBe(409);
    expect((await as(h, other).post('/api/projects', { name: 'Website Relaunch' })).status).toBe(200);
  });

  it('lets only one of two concurrent creations of one name through (the unique constraint decides)', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const results = await Promise.all([
      api.post('/api/projects', { name: 'Race' }),
      api.post('/api/projects', { name: 'race' }),
      api.post('/api/projects', { name: 'RACE' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const all = await api.get('/api/projects');
    expect(Object.values(all.body).filter((p: any) => p.name.toLowerCase() === 'race')).toHaveLength(1);
  });

  it('lists every project for an admin, and for a User only those they are an unarchived member of', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const a = await t.project({ name: 'A' });
    const b = await t.project({ name: 'B' });
    const c = await t.project({ name: 'C' });
    await t.member(a.id, user);
    const membership = await t.member(c.id, user);
    await t.ok(t.api().put(`/api/projects/${c.id}/members/${membership.id}`, { archived: true }));
    await t.ok(t.api().put(`/api/projects/${a.id}`, { archived: true }));

    const adminList = await t.ok(t.api().get('/api/projects'));
    expect(Object.keys(adminList)).toEqual([a.id, b.id, c.id]);
    expect(adminList[a.id]).toEqual({ ...a, archived: true });

    const userList = await t.ok(t.api(user).get('/api/projects'));
    expect(Object.keys(userList)).toEqual([a.id]);
    expect((await t.api(user).get(`/api/projects/${a.id}`)).status).toBe(200);
    expect((await t.api(user).get(`/api/projects/${b.id}`)).status).toBe(404);
    expect((await t.api(user).get(`/api/projects/${c.id}`)).status).toBe(404);
  });

  it('updates name, notes, billable, archived and avatar for admins and project admins', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const lead = await h.user(ws);
    const project = await t.project({ name: 'Old' });
    await t.member(project.id, lead, { role: 'Administrator' });

    const byAdmin = await t.ok(
      t.api().put(`/api/projects/${project.id}`, { name: ' New ', notes: 'N', billable: true, avatar: 'https://x.test/a.png' }),
    );
    expect(byAdmin).toEqual({
      id: project.id,
      name: 'New',
      archived: false,
      billable: true,
      avatar: 'https://x.test/a.png',
      notes: 'N',
      clientId: null,
      color: project.color,
    });

    const byLead = await t.ok(t.api(lead).put(`/api/projects/${project.id}`, { archived: true, avatar: null, id: 'x' }));
    expect(byLead).toEqual({ ...byAdmin, archived: true, avatar: null });
    expect(await t.ok(t.api().get(`/api/projects/${project.id}`))).toEqual(byLead);
  });

  it('answers 403 to a member who is not a project admin and 404 to a user who cannot see the project', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const member = await h.user(ws);
    const stranger = await h.user(ws);
    const project = await t.project();
    await t.member(project.id, member);
    expect((await t.api(member).put(`/api/projects/${project.id}`, { notes: 'x' })).status).toBe(403);
    expect((await t.api(stranger).put(`/api/projects/${project.id}`, { notes: 'x' })).status).toBe(404);
    expect((await t.ok(t.api().get(`/api/projects/${project.id}`))).notes).toBeUndefined();
  });

  it('answers 409 when a rename takes another project\'s name, and allows changing the case of its own', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    await t.project({ name: 'Taken' });
    const project = await t.project({ name: 'Mine' });
    expect((await t.api().put(`/api/projects/${project.id}`, { name: 'TAKEN' })).status).toBe(409);
    expect((await t.ok(t.api().put(`/api/projects/${project.id}`, { name: 'MINE' }))).name).toBe('MINE');
  });

  it('deletes a project with its members and rates, keeping its activities with projectId null', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const project = await t.project();
    const member = await t.member(project.id, user);
    await t.ok(
      t.api().post(`/api/projects/${project.id}/members/${member.id}/rates/revenue`, {
        currency: 'EUR',
        from: '2026-01-01T00:00:00Z',
        taxRate: 19,
        value: 100,
      }),
    );
    const activity = await t.activity(user, { projectId: project.id });

    expect(await t.ok(t.api().delete(`/api/projects/${project.id}`))).toEqual({});
    expect((await t.api().get(`/api/projects/${project.id}`)).status).toBe(404);
    expect((await t.api().get(`/api/projects/${project.id}/members`)).status).toBe(404);
    expect((await t.api().delete(`/api/projects/${project.id}`)).status).toBe(404);

    const activities = await t.ok(t.api(user).get('/api/activities'));
    expect(activities[activity.id]).toEqual({ ...activity, projectId: null });
    const db = h.app.db;
    expect(await db.selectFrom('project_members').select('id').where('project_id', '=', project.id).execute()).toEqual([]);
    expect(await db.selectFrom('revenue_rates').select('id').where('member_id', '=', member.id).execute()).toEqual([]);
  });

  it('answers 404 for another workspace\'s project, whatever the caller\'s role', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const project = await tracking(h, ws).project();
    const api = as(h, other);
    expect((await api.get(`/api/projects/${project.id}`)).status).toBe(404);
    expect((await api.put(`/api/projects/${project.id}`, { name: 'Stolen' })).status).toBe(404);
    expect((await api.delete(`/api/projects/${project.id}`)).status).toBe(404);
    expect(Object.keys((await api.get('/api/projects')).body)).toEqual([]);
    expect((await as(h, ws).get(`/api/projects/${project.id}`)).body.name).toBe(project.name);
    expect((await api.get('/api/projects/not-an-id')).status).toBe(404);
  });
});
