import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';
import { expectDocumented, tracking } from '../support/tracking.js';

describeEachStore('Project members', (h) => {
  it('documents its five operations in the OpenAPI document', async () => {
    await expectDocumented(h, [
      ['get', '/projects/{projectId}/members', 'listProjectMembers', []],
      ['post', '/projects/{projectId}/members', 'createProjectMember', [403, 409, 422]],
      ['get', '/projects/{projectId}/members/{memberId}', 'getProjectMember', []],
      ['put', '/projects/{projectId}/members/{memberId}', 'updateProjectMember', [403, 422]],
      ['delete', '/projects/{projectId}/members/{memberId}', 'deleteProjectMember', [403]],
    ]);
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(doc.components.schemas.ProjectMember).toBeDefined();
  });

  it('adds a member with exactly the reference\'s fields: role User by default, assignedBy the caller', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const project = await t.project();
    const res = await t.api().post(`/api/projects/${project.id}/members`, {
      userId: user.userId,
      assignedBy: 'someone-else',
      projectId: 'another',
      id: 'mine',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      projectId: project.id,
      userId: user.userId,
      role: 'User',
      archived: false,
      assignedBy: ws.admin.userId,
      tags: null,
    });
    expect(await t.ok(t.api().get(`/api/projects/${project.id}/members/${res.body.id}`))).toEqual(res.body);
  });

  it('stores role, title, notes and tags as given', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const project = await t.project();
    const member = await t.member(project.id, user, { role: 'Administrator', title: ' Lead ', notes: 'n', tags: ['a', 'b'] });
    expect(member).toMatchObject({ role: 'Administrator', title: 'Lead', notes: 'n', tags: ['a', 'b'] });
  });

  it('validates role, tags and types (422)', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const project = await t.project();
    const post = (body: Record<string, unknown>) => t.api().post(`/api/projects/${project.id}/members`, { userId: user.userId, ...body });
    const role = await post({ role: 'Owner' });
    expect(role.status).toBe(422);
    expect(role.body.errors[0].pointer).toBe('/body/role');
    expect((await post({ tags: ['ok', 5] })).status).toBe(422);
    expect((await post({ tags: 'a' })).status).toBe(422);
    expect((await post({ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) })).status).toBe(422);
    expect((await post({ title: 7 })).status).toBe(422);
    expect((await t.api().post(`/api/projects/${project.id}/members`, {})).status).toBe(422);
    expect((await post({ tags: null })).body.tags).toBeNull();
  });

  it('answers 409 for a second membership of one user, also when two additions race', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const racer = await h.user(ws);
    const project = await t.project();
    await t.member(project.id, user);
    const dup = await t.api().post(`/api/projects/${project.id}/members`, { userId: user.userId, role: 'Administrator' });
    expect(dup.status).toBe(409);
    expect((await t.api().post(`/api/projects/${project.id}/members`, { userId: ws.admin.userId })).status).toBe(409);

    const race = await Promise.all([0, 1, 2].map(() => t.api().post(`/api/projects/${project.id}/members`, { userId: racer.userId })));
    expect(race.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const members = await t.ok(t.api().get(`/api/projects/${project.id}/members`));
    expect(Object.values(members).filter((m: any) => m.userId === racer.userId)).toHaveLength(1);
  });

  it('answers 422 at /body/userId for an unknown, archived or other workspace\'s user', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const t = tracking(h, ws);
    const archived = await h.user(ws, { archived: true });
    const project = await t.project();
    for (const userId of ['no-such-user', archived.userId, other.admin.userId]) {
      const res = await t.api().post(`/api/projects/${project.id}/members`, { userId });
      expect(res.status, userId).toBe(422);
      expect(res.body.errors).toEqual([{ pointer: '/body/userId', message: expect.any(String) }]);
    }
  });

  it('lets project admins write members; a plain member gets 403, a non-member 404', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const [lead, member, stranger, newcomer] = await Promise.all([h.user(ws), h.user(ws), h.user(ws), h.user(ws)]);
    const project = await t.project();
    await t.member(project.id, lead, { role: 'Administrator' });
    const plain = await t.member(project.id, member);

    const added = await t.ok(t.api(lead).post(`/api/projects/${project.id}/members`, { userId: newcomer.userId }));
    expect(added.assignedBy).toBe(lead.userId);
    expect((await t.api(member).post(`/api/projects/${project.id}/members`, { userId: stranger.userId })).status).toBe(403);
    expect((await t.api(member).put(`/api/projects/${project.id}/members/${plain.id}`, { role: 'Administrator' })).status).toBe(403);
    expect((await t.api(member).delete(`/api/projects/${project.id}/members/${added.id}`)).status).toBe(403);
    expect((await t.api(stranger).post(`/api/projects/${project.id}/members`, { userId: stranger.userId })).status).toBe(404);
    expect((await t.api(stranger).put(`/api/projects/${project.id}/members/${plain.id}`, { notes: 'x' })).status).toBe(404);
    expect((await t.api(lead).put(`/api/projects/${project.id}/members/${plain.id}`, { title: 'Dev' })).status).toBe(200);
  });

  it('lets admins and the project\'s members read members; others get 404', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const [member, stranger] = await Promise.all([h.user(ws), h.user(ws)]);
    const project = await t.project();
    const membership = await t.member(project.id, member);
    const list = await t.ok(t.api(member).get(`/api/projects/${project.id}/members`));
    expect(Object.keys(list)).toHaveLength(2);
    expect(list[membership.id]).toEqual(membership);
    expect(await t.ok(t.api(member).get(`/api/projects/${project.id}/members/${membership.id}`))).toEqual(membership);
    expect((await t.api(stranger).get(`/api/projects/${project.id}/members`)).status).toBe(404);
    expect((await t.api(stranger).get(`/api/projects/${project.id}/members/${membership.id}`)).status).toBe(404);
  });

  it('updates role, title, tags, notes and archived; userId and assignedBy stay; archived null reads as false', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const [user, other] = await Promise.all([h.user(ws), h.user(ws)]);
    const project = await t.project();
    const member = await t.member(project.id, user, { tags: ['x'] });
    const url = `/api/projects/${project.id}/members/${member.id}`;
    const updated = await t.ok(
      t.api().put(url, { role: 'Administrator', title: 'PM', tags: null, notes: 'n', archived: true, userId: other.userId, assignedBy: other.userId }),
    );
    expect(updated).toEqual({ ...member, role: 'Administrator', title: 'PM', tags: null, notes: 'n', archived: true });
    // An archived member loses the project.
    expect((await t.api(user).get(`/api/projects/${project.id}`)).status).toBe(404);
    expect((await t.ok(t.api().put(url, { archived: null }))).archived).toBe(false);
    expect((await t.api(user).get(`/api/projects/${project.id}`)).status).toBe(200);
    expect((await t.api().put(url, { archived: 'false' })).status).toBe(422);
  });

  it('removes a member with their revenue rates; the member then reads 404', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const project = await t.project();
    const member = await t.member(project.id, user);
    await t.ok(
      t.api().post(`/api/projects/${project.id}/members/${member.id}/rates/revenue`, { currency: 'EUR', from: '2026-01-01T00:00:00Z', taxRate: 0, value: 1 }),
    );
    expect(await t.ok(t.api().delete(`/api/projects/${project.id}/members/${member.id}`))).toEqual({});
    expect((await t.api().get(`/api/projects/${project.id}/members/${member.id}`)).status).toBe(404);
    expect((await t.api().delete(`/api/projects/${project.id}/members/${member.id}`)).status).toBe(404);
    expect(await h.app.db.selectFrom('revenue_rates').select('id').where('member_id', '=', member.id).execute()).toEqual([]);
    expect((await t.api(user).get(`/api/projects/${project.id}`)).status).toBe(404);
  });

  it('answers 404 for a member of another project, and for another workspace\'s ids whatever the role', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const [p1, p2] = [await t.project(), await t.project()];
    const member = await t.member(p1.id, user);
    expect((await t.api().get(`/api/projects/${p2.id}/members/${member.id}`)).status).toBe(404);
    expect((await t.api().put(`/api/projects/${p2.id}/members/${member.id}`, { notes: 'x' })).status).toBe(404);
    expect((await t.api().delete(`/api/projects/${p2.id}/members/${member.id}`)).status).toBe(404);

    const outsider = as(h, other);
    expect((await outsider.get(`/api/projects/${p1.id}/members`)).status).toBe(404);
    expect((await outsider.get(`/api/projects/${p1.id}/members/${member.id}`)).status).toBe(404);
    expect((await outsider.post(`/api/projects/${p1.id}/members`, { userId: other.admin.userId })).status).toBe(404);
    expect((await outsider.put(`/api/projects/${p1.id}/members/${member.id}`, { role: 'Administrator' })).status).toBe(404);
    expect((await outsider.delete(`/api/projects/${p1.id}/members/${member.id}`)).status).toBe(404);
    expect((await t.ok(t.api().get(`/api/projects/${p1.id}/members/${member.id}`))).role).toBe('User');
  });
});
