import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { newId } from '../support/src.js';

/** A project of a workspace, created by its administrator through POST /projects. */
async function project(h: Harness, ws: TestWorkspace, name = `Project ${newId()}`): Promise<string> {
  return (await make.project(h, ws, { name })).id;
}

async function removeProject(h: Harness, ws: TestWorkspace, projectId: string): Promise<void> {
  await ok(as(h, ws).delete(`/api/projects/${projectId}`));
}

const PLACE = { latitude: 52.52, longitude: 13.405, radius: 150 };

describeEachStore('Geofence routes', (h) => {
  it('GET /geofences is an empty map by default', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/geofences');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });

  it('POST /geofences creates a geofence with every field; GET by id answers the same record', async () => {
    const ws = await h.workspace();
    const projectId = await project(h, ws);
    const res = await as(h, ws).post('/api/geofences', {
      ...PLACE,
      name: 'Office',
      enterAction: 'start',
      exitAction: 'stop',
      projectId,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      ...PLACE,
      name: 'Office',
      enterAction: 'start',
      exitAction: 'stop',
      projectId,
    });
    const got = await as(h, ws).get(`/api/geofences/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('optional fields without a value are left out; projectId is null when none is given', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/geofences', PLACE);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), ...PLACE, projectId: null });
    const explicitNull = await as(h, ws).post('/api/geofences', { ...PLACE, projectId: null });
    expect(explicitNull.body).toEqual({ id: expect.any(String), ...PLACE, projectId: null });
  });

  it('GET /geofences is an id-keyed map in creation order', async () => {
    const ws = await h.workspace();
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) ids.push((await as(h, ws).post('/api/geofences', { ...PLACE, name })).body.id);
    const res = await as(h, ws).get('/api/geofences');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(ids);
    expect(res.body[ids[1]]).toEqual({ id: ids[1], ...PLACE, name: 'B', projectId: null });
  });

  it('server-owned and unknown fields in the body are ignored; names are trimmed', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/geofences', { ...PLACE, id: 'mine', color: 'red', name: '  Office  ' });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe('mine');
    expect(res.body).toEqual({ id: res.body.id, ...PLACE, name: 'Office', projectId: null });
    expect((await as(h, ws).get('/api/geofences/mine')).status).toBe(404);
  });

  it('a blank name is 422', async () => {
    const ws = await h.workspace();
    for (const name of ['', '   ']) {
      const res = await as(h, ws).post('/api/geofences', { ...PLACE, name });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/body/name');
    }
  });

  it('everyone reads geofences; only administrators write them (403 for a User, before validation)', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws, { role: 'User' });
    const created = (await as(h, ws).post('/api/geofences', { ...PLACE, name: 'Office' })).body;
    const asUser = as(h, ws, user);
    expect(await asUser.get('/api/geofences')).toMatchObject({ status: 200, body: { [created.id]: created } });
    expect(await asUser.get(`/api/geofences/${created.id}`)).toMatchObject({ status: 200, body: created });
    for (const res of [
      await asUser.post('/api/geofences', PLACE),
      await asUser.post('/api/geofences', { latitude: 500 }),
      await asUser.put(`/api/geofences/${created.id}`, { radius: 10 }),
      await asUser.delete(`/api/geofences/${created.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await as(h, ws).get('/api/geofences')).body).toEqual({ [created.id]: created });
  });

  it('latitude, longitude and radius out of range are 422 with a pointer at the field', async () => {
    const ws = await h.workspace();
    const cases: [Record<string, unknown>, string][] = [
      [{ latitude: 90.0001 }, '/body/latitude'],
      [{ latitude: -90.5 }, '/body/latitude'],
      [{ longitude: 180.1 }, '/body/longitude'],
      [{ longitude: -181 }, '/body/longitude'],
      [{ radius: 0 }, '/body/radius'],
      [{ radius: -5 }, '/body/radius'],
      [{ radius: 100_000.5 }, '/body/radius'],
      [{ latitude: '52.5' }, '/body/latitude'],
      [{ radius: '10' }, '/body/radius'],
      [{ projectId: 42 }, '/body/projectId'],
    ];
    for (const [change, pointer] of cases) {
      const res = await as(h, ws).post('/api/geofences', { ...PLACE, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body.code).toBe('validation');
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    for (const missing of ['latitude', 'longitude', 'radius']) {
      const body: Record<string, unknown> = { ...PLACE };
      delete body[missing];
      const res = await as(h, ws).post('/api/geofences', body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].pointer).toBe(`/body/${missing}`);
    }
    expect((await as(h, ws).get('/api/geofences')).body).toEqual({});
  });

  it('the bounds themselves are accepted: ±90, ±180, radius 100,000 and just above 0', async () => {
    const ws = await h.workspace();
    for (const place of [
      { latitude: 90, longitude: 180, radius: 100_000 },
      { latitude: -90, longitude: -180, radius: 0.001 },
    ]) {
      const res = await as(h, ws).post('/api/geofences', place);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: expect.any(String), ...place, projectId: null });
    }
  });

  it('projectId must be null or an existing project of this workspace (422 otherwise)', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const foreignProject = await project(h, other);
    for (const projectId of ['no-such-project', foreignProject]) {
      const res = await as(h, ws).post('/api/geofences', { ...PLACE, projectId });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation');
      expect(res.body.errors).toEqual([{ pointer: '/body/projectId', message: expect.any(String) }]);
    }
    expect((await as(h, ws).get('/api/geofences')).body).toEqual({});
  });

  it('deleting a project keeps its geofences, with projectId null', async () => {
    const ws = await h.workspace();
    const projectId = await project(h, ws);
    const created = (await as(h, ws).post('/api/geofences', { ...PLACE, name: 'Site', projectId })).body;
    expect(created.projectId).toBe(projectId);
    await removeProject(h, ws, projectId);
    const res = await as(h, ws).get(`/api/geofences/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, projectId: null });
  });

  it('a project deleted while a geofence referencing it is created: 422, or the geofence survives without it', async () => {
    const ws = await h.workspace();
    for (let round = 0; round < 5; round++) {
      const projectId = await project(h, ws);
      const [created] = await Promise.all([
        as(h, ws).post('/api/geofences', { ...PLACE, projectId }),
        removeProject(h, ws, projectId),
      ]);
      if (created.status === 200) {
        const stored = await as(h, ws).get(`/api/geofences/${created.body.id}`);
        expect(stored.body.projectId).toBeNull();
      } else {
        expect(created.status).toBe(422);
        expect(created.body.errors[0].pointer).toBe('/body/projectId');
      }
    }
  });

  it('PUT /geofences/{id} changes only the fields given', async () => {
    const ws = await h.workspace();
    const projectId = await project(h, ws);
    const created = (
      await as(h, ws).post('/api/geofences', { ...PLACE, name: 'Office', enterAction: 'start', exitAction: 'stop', projectId })
    ).body;

    const radius = await as(h, ws).put(`/api/geofences/${created.id}`, { radius: 300 });
    expect(radius.status).toBe(200);
    expect(radius.body).toEqual({ ...created, radius: 300 });

    const moved = await as(h, ws).put(`/api/geofences/${created.id}`, { latitude: -33.8688, longitude: 151.2093, name: ' Sydney ' });
    expect(moved.body).toEqual({ ...created, radius: 300, latitude: -33.8688, longitude: 151.2093, name: 'Sydney' });

    const empty = await as(h, ws).put(`/api/geofences/${created.id}`, {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(moved.body);
    expect((await as(h, ws).get(`/api/geofences/${created.id}`)).body).toEqual(moved.body);
  });

  it('PUT with null removes name and actions and detaches the project; another project of the workspace can be set', async () => {
    const ws = await h.workspace();
    const first = await project(h, ws);
    const second = await project(h, ws);
    const created = (
      await as(h, ws).post('/api/geofences', { ...PLACE, name: 'Office', enterAction: 'start', exitAction: 'stop', projectId: first })
    ).body;
    const switched = await as(h, ws).put(`/api/geofences/${created.id}`, { projectId: second });
    expect(switched.body).toEqual({ ...created, projectId: second });
    const cleared = await as(h, ws).put(`/api/geofences/${created.id}`, {
      name: null,
      enterAction: null,
      exitAction: null,
      projectId: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ id: created.id, ...PLACE, projectId: null });
    expect((await as(h, ws).get(`/api/geofences/${created.id}`)).body).toEqual(cleared.body);
  });

  it('PUT out of range or with an unknown project is 422 and changes nothing', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const created = (await as(h, ws).post('/api/geofences', { ...PLACE, name: 'Office' })).body;
    const cases: [Record<string, unknown>, string][] = [
      [{ latitude: 91 }, '/body/latitude'],
      [{ longitude: -180.01 }, '/body/longitude'],
      [{ radius: 0 }, '/body/radius'],
      [{ radius: 100_001 }, '/body/radius'],
      [{ radius: 10, name: '  ' }, '/body/name'],
      [{ radius: 10, projectId: 'no-such-project' }, '/body/projectId'],
      [{ radius: 10, projectId: await project(h, other) }, '/body/projectId'],
    ];
    for (const [body, pointer] of cases) {
      const res = await as(h, ws).put(`/api/geofences/${created.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    expect((await as(h, ws).get(`/api/geofences/${created.id}`)).body).toEqual(created);
  });

  it('DELETE /geofences/{id} answers {}; then GET is 404 and the map is empty', async () => {
    const ws = await h.workspace();
    const created = (await as(h, ws).post('/api/geofences', PLACE)).body;
    const res = await as(h, ws).delete(`/api/geofences/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const gone = await as(h, ws).get(`/api/geofences/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('not-found');
    expect((await as(h, ws).get('/api/geofences')).body).toEqual({});
    expect((await as(h, ws).delete(`/api/geofences/${created.id}`)).status).toBe(404);
  });

  it('unknown, malformed and overlong ids are 404 for GET, PUT and DELETE', async () => {
    const ws = await h.workspace();
    for (const id of ['nope', 'x'.repeat(80), '%20']) {
      for (const res of [
        await as(h, ws).get(`/api/geofences/${id}`),
        await as(h, ws).put(`/api/geofences/${id}`, { radius: 10 }),
        await as(h, ws).delete(`/api/geofences/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not-found');
      }
    }
  });

  it('another workspace\'s geofences are invisible: 404 for GET, PUT and DELETE, absent from the map', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    const created = (await as(h, a).post('/api/geofences', { ...PLACE, name: 'A only' })).body;
    expect((await as(h, b).get('/api/geofences')).body).toEqual({});
    for (const res of [
      await as(h, b).get(`/api/geofences/${created.id}`),
      await as(h, b).put(`/api/geofences/${created.id}`, { radius: 10 }),
      await as(h, b).delete(`/api/geofences/${created.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not-found');
    }
    expect((await as(h, a).get(`/api/geofences/${created.id}`)).body).toEqual(created);
  });

  it('the OpenAPI document lists the five geofence operations and the Geofence schema', async () => {
    const doc = (await h.call('GET', '/api/openapi.json')).body;
    expect([
      doc.paths['/geofences'].get.operationId,
      doc.paths['/geofences'].post.operationId,
      doc.paths['/geofences/{geofenceId}'].get.operationId,
      doc.paths['/geofences/{geofenceId}'].put.operationId,
      doc.paths['/geofences/{geofenceId}'].delete.operationId,
    ]).toEqual(['listGeofences', 'createGeofence', 'getGeofence', 'updateGeofence', 'deleteGeofence']);
    expect(doc.components.schemas.Geofence.required).toEqual(['id', 'latitude', 'longitude', 'radius']);
  });
});
