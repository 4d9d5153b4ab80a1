import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { newId } from '../support/src.js';

const MINIMAL = {
  name: 'Monthly hours',
  period: 'custom',
  start: '2026-01-01T00:00:00.000Z',
  end: '2026-02-01T00:00:00.000Z',
  dimensions: ['project'],
  metrics: ['time', 'billableTime'],
};

const DEFAULTS = {
  filters: [],
  hideEmptyRows: false,
  pinned: false,
  selectedProjects: null,
  selectedProjectMembers: null,
  showArchivedProjects: false,
  showArchivedMembers: false,
  overridesEnabled: false,
  overrides: [],
};

/** A project with one member: the admin, who created it and so is its project admin. */
async function projectWithMember(h: Harness, ws: TestWorkspace) {
  const project = await make.project(h, ws, { billable: true });
  const members = await ok(as(h, ws).get(`/api/projects/${project.id}/members`));
  const admin = Object.values<any>(members).find((member) => member.userId === ws.admin.userId);
  return { projectId: project.id as string, memberId: admin.id as string };
}

describeEachStore('Reports', (h) => {
  it('POST with the required fields answers the report with every field, defaults filled in', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).post('/api/reports', MINIMAL);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), userId: user.userId, ...MINIMAL, ...DEFAULTS });
    expect((await as(h, ws, user).get(`/api/reports/${res.body.id}`)).body).toEqual(res.body);
  });

  it('POST takes every field; selected projects and members must exist; start/end come back in UTC', async () => {
    const ws = await h.workspace();
    const { projectId, memberId } = await projectWithMember(h, ws);
    const body = {
      name: '  Team by week  ',
      period: 'lastMonth',
      start: '2026-03-01T00:00:00+02:00',
      end: '2026-04-01T00:00:00+02:00',
      dimensions: ['user', 'week', 'member'],
      metrics: ['revenue', 'cost', 'profit'],
      filters: [{ field: 'billable', equals: true }, { tags: ['a', 'b'] }],
      hideEmptyRows: true,
      selectedProjects: [projectId],
      selectedProjectMembers: [memberId],
      showArchivedProjects: true,
      showArchivedMembers: true,
      overridesEnabled: true,
      overrides: [{ column: 'time', hint: 'Hours worked', label: 'Hours', extra: 'dropped' }],
    };
    const res = await as(h, ws).post('/api/reports', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...body,
      id: expect.any(String),
      userId: ws.admin.userId,
      name: 'Team by week',
      start: '2026-02-28T22:00:00.000Z',
      end: '2026-03-31T22:00:00.000Z',
      pinned: false,
      overrides: [{ column: 'time', hint: 'Hours worked', label: 'Hours' }],
    });
  });

  it('server-owned and unknown fields are ignored: id, userId, pinned (PUT only), anything else', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).post('/api/reports', { ...MINIMAL, id: 'mine', userId: ws.admin.userId, pinned: true, colour: 'red' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), userId: user.userId, ...MINIMAL, ...DEFAULTS });
    expect(res.body.id).not.toBe('mine');
    const stored = await h.app.db.selectFrom('reports').select('definition').where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(stored.definition).not.toContain('colour');
  });

  it('GET /reports lists only the caller\'s own reports, in creation order', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const a = await as(h, ws, user).post('/api/reports', { ...MINIMAL, name: 'A' });
    const b = await as(h, ws, user).post('/api/reports', { ...MINIMAL, name: 'B' });
    await as(h, ws).post('/api/reports', { ...MINIMAL, name: 'Admin\'s' });
    const res = await as(h, ws, user).get('/api/reports');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ [a.body.id]: a.body, [b.body.id]: b.body });
    expect(Object.keys(res.body)).toEqual([a.body.id, b.body.id]);
  });

  it('another user\'s report is 404 for every operation, administrators included, and stays as it was', async () => {
    const ws = await h.workspace();
    const owner = await h.user(ws);
    const other = await h.user(ws);
    const created = await as(h, ws, owner).post('/api/reports', MINIMAL);
    const url = `/api/reports/${created.body.id}`;
    for (const caller of [ws.admin, other]) {
      for (const res of [
        await as(h, ws, caller).get(url),
        await as(h, ws, caller).put(url, { name: 'Taken', pinned: true }),
        await as(h, ws, caller).delete(url),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not-found');
      }
      expect((await as(h, ws, caller).get('/api/reports')).body).toEqual({});
    }
    expect((await as(h, ws, owner).get(url)).body).toEqual(created.body);
  });

  it('unknown report ids are 404', async () => {
    const ws = await h.workspace();
    for (const id of [newId(), 'junk']) {
      expect((await as(h, ws).get(`/api/reports/${id}`)).status).toBe(404);
      expect((await as(h, ws).put(`/api/reports/${id}`, { pinned: true })).status).toBe(404);
      expect((await as(h, ws).delete(`/api/reports/${id}`)).status).toBe(404);
    }
  });

  it('period, dimensions and metrics come from their enumerations, without repeats; required fields are required (422)', async () => {
    const ws = await h.workspace();
    const cases: [unknown, string][] = [
      [{ ...MINIMAL, period: 'someday' }, '/body/period'],
      [{ ...MINIMAL, dimensions: ['colour'] }, '/body/dimensions/0'],
      [{ ...MINIMAL, dimensions: [] }, '/body/dimensions'],
      [{ ...MINIMAL, dimensions: ['day', 'day'] }, '/body/dimensions'],
      [{ ...MINIMAL, metrics: ['time', 'money'] }, '/body/metrics/1'],
      [{ ...MINIMAL, metrics: ['time', 'time'] }, '/body/metrics'],
      [{ ...MINIMAL, name: '   ' }, '/body/name'],
      [{ ...MINIMAL, hideEmptyRows: 'yes' }, '/body/hideEmptyRows'],
      [{ ...MINIMAL, filters: ['text'] }, '/body/filters/0'],
      [{ ...MINIMAL, overrides: [{ column: 'time', label: 'Hours' }] }, '/body/overrides/0/hint'],
      [{ ...MINIMAL, start: '2026-01-01T00:00:00' }, '/body/start'],
      [{ ...MINIMAL, start: 'yesterday' }, '/body/start'],
    ];
    for (const field of ['name', 'period', 'start', 'end', 'dimensions', 'metrics']) {
      const body: Record<string, unknown> = { ...MINIMAL };
      delete body[field];
      cases.push([body, `/body/${field}`]);
    }
    for (const [body, pointer] of cases) {
      const res = await as(h, ws).post('/api/reports', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation');
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    expect((await as(h, ws).get('/api/reports')).body).toEqual({});
  });

  it('start must be before end (422)', async () => {
    const ws = await h.workspace();
    for (const [start, end] of [
      ['2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      ['2026-01-01T01:00:00+01:00', '2026-01-01T00:00:00Z'],
    ]) {
      const res = await as(h, ws).post('/api/reports', { ...MINIMAL, start, end });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/body/end');
    }
  });

  it('selectedProjects and selectedProjectMembers must name records of this workspace, or be null (422)', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const mine = await projectWithMember(h, ws);
    const theirs = await projectWithMember(h, other);
    const cases: [Record<string, unknown>, string][] = [
      [{ selectedProjects: [mine.projectId, newId()] }, '/body/selectedProjects/1'],
      [{ selectedProjects: [theirs.projectId] }, '/body/selectedProjects/0'],
      [{ selectedProjects: [mine.memberId] }, '/body/selectedProjects/0'],
      [{ selectedProjectMembers: [theirs.memberId] }, '/body/selectedProjectMembers/0'],
      [{ selectedProjectMembers: [mine.projectId] }, '/body/selectedProjectMembers/0'],
      [{ selectedProjects: [mine.projectId, mine.projectId] }, '/body/selectedProjects'],
      [{ selectedProjects: 'all' }, '/body/selectedProjects'],
    ];
    for (const [fields, pointer] of cases) {
      const res = await as(h, ws).post('/api/reports', { ...MINIMAL, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    const ok = await as(h, ws).post('/api/reports', {
      ...MINIMAL,
      selectedProjects: [mine.projectId],
      selectedProjectMembers: null,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.selectedProjects).toEqual([mine.projectId]);
    expect(ok.body.selectedProjectMembers).toBeNull();
    const cleared = await as(h, ws).put(`/api/reports/${ok.body.id}`, { selectedProjects: null, selectedProjectMembers: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.selectedProjects).toBeNull();
    expect(cleared.body.selectedProjectMembers).toEqual([]);
  });

  it('PUT pins a report and changes only the fields it is given', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const created = await as(h, ws, user).post('/api/reports', MINIMAL);
    const url = `/api/reports/${created.body.id}`;
    const pinned = await as(h, ws, user).put(url, { pinned: true });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toEqual({ ...created.body, pinned: true });
    const renamed = await as(h, ws, user).put(url, {
      name: 'Renamed',
      period: 'thisYear',
      metrics: ['profit'],
      end: '2026-12-31T00:00:00Z',
      id: 'other',
      userId: ws.admin.userId,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({
      ...created.body,
      pinned: true,
      name: 'Renamed',
      period: 'thisYear',
      metrics: ['profit'],
      end: '2026-12-31T00:00:00.000Z',
    });
    expect((await as(h, ws, user).get(url)).body).toEqual(renamed.body);
    const unpinned = await as(h, ws, user).put(url, { pinned: false });
    expect(unpinned.body.pinned).toBe(false);
  });

  it('PUT checks start before end against the stored value and the same rules as POST (422, nothing changes)', async () => {
    const ws = await h.workspace();
    const created = await as(h, ws).post('/api/reports', MINIMAL);
    const url = `/api/reports/${created.body.id}`;
    for (const [body, pointer] of [
      [{ end: '2025-12-01T00:00:00Z' }, '/body/end'],
      [{ start: '2026-03-01T00:00:00Z' }, '/body/start'],
      [{ pinned: 'yes' }, '/body/pinned'],
      [{ period: 'forever' }, '/body/period'],
      [{ dimensions: ['project', 'project'] }, '/body/dimensions'],
      [{ selectedProjects: [newId()] }, '/body/selectedProjects/0'],
      [{ name: '' }, '/body/name'],
    ] as const) {
      const res = await as(h, ws).put(url, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    expect((await as(h, ws).get(url)).body).toEqual(created.body);
  });

  it('concurrent partial PUTs of one report all land', async () => {
    const ws = await h.workspace();
    const created = await as(h, ws).post('/api/reports', MINIMAL);
    const url = `/api/reports/${created.body.id}`;
    const results = await Promise.all([
      as(h, ws).put(url, { pinned: true }),
      as(h, ws).put(url, { name: 'Concurrent' }),
      as(h, ws).put(url, { hideEmptyRows: true }),
      as(h, ws).put(url, { showArchivedMembers: true }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await as(h, ws).get(url)).body).toEqual({
      ...created.body,
      pinned: true,
      name: 'Concurrent',
      hideEmptyRows: true,
      showArchivedMembers: true,
    });
  });

  it('DELETE removes the report ({}); then it is 404 and gone from the list', async () => {
    const ws = await h.workspace();
    const created = await as(h, ws).post('/api/reports', MINIMAL);
    const res = await as(h, ws).delete(`/api/reports/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await as(h, ws).get(`/api/reports/${created.body.id}`)).status).toBe(404);
    expect((await as(h, ws).get('/api/reports')).body).toEqual({});
  });

  it('filters and overrides are bounded (422 beyond 100 items)', async () => {
    const ws = await h.workspace();
    const filters = Array.from({ length: 101 }, (_, i) => ({ i }));
    const overrides = Array.from({ length: 101 }, () => ({ column: 'c', hint: 'h', label: 'l' }));
    expect((await as(h, ws).post('/api/reports', { ...MINIMAL, filters })).status).toBe(422);
    expect((await as(h, ws).post('/api/reports', { ...MINIMAL, overrides })).status).toBe(422);
  });
});
