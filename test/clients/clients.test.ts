import { expect, it } from 'vitest';
import { changesSince, feedEnd } from '../changes/feed-support.js';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok } from '../support/harness.js';
import { expectDocumented } from '../support/tracking.js';

describeEachStore('Clients (docs/rules.md §6 Clients)', (h) => {
  it('documents its five operations in the OpenAPI document', async () => {
    await expectDocumented(h, [
      ['get', '/clients', 'listClients', []],
      ['post', '/clients', 'createClient', [403, 409, 422]],
      ['get', '/clients/{clientId}', 'getClient', []],
      ['put', '/clients/{clientId}', 'updateClient', [403, 409, 422]],
      ['delete', '/clients/{clientId}', 'deleteClient', [403, 409]],
    ]);
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(Object.keys(doc.components.schemas.Client.properties)).toEqual(['id', 'name', 'archived', 'notes']);
  });

  it('an administrator creates a client {id, name, archived, notes} with its name trimmed; server-owned fields are ignored', async () => {
    const ws = await h.workspace();
    const created = await ok(as(h, ws).post('/api/clients', { name: '  Acme  ', notes: 'Net 30', id: 'mine', archived: true }));
    expect(created).toEqual({ id: expect.any(String), name: 'Acme', archived: false, notes: 'Net 30' });
    expect(created.id).not.toBe('mine');
    expect(await ok(as(h, ws).post('/api/clients', { name: 'Plain' }))).toEqual({ id: expect.any(String), name: 'Plain', archived: false, notes: null });
    expect(await ok(as(h, ws).get(`/api/clients/${created.id}`))).toEqual(created);
  });

  it('names are 1–200 characters once trimmed (422 at /body/name)', async () => {
    const ws = await h.workspace();
    for (const name of ['   ', '', 'x'.repeat(201)]) {
      const res = await as(h, ws).post('/api/clients', { name });
      expect(res.status, name).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/body/name');
    }
    expect((await as(h, ws).post('/api/clients', {})).body.errors[0].pointer).toBe('/body/name');
    const client = await make.client(h, ws);
    const blank = await as(h, ws).put(`/api/clients/${client.id}`, { name: ' ' });
    expect([blank.status, blank.body.errors[0].pointer]).toEqual([422, '/body/name']);
    expect((await ok(as(h, ws).post('/api/clients', { name: 'y'.repeat(200) }))).name).toHaveLength(200);
  });

  it('names are unique in the workspace regardless of case (409 on create and rename), not across workspaces', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    await make.client(h, ws, { name: 'Acme Corp' });
    const dup = await as(h, ws).post('/api/clients', { name: ' ACME corp ' });
    expect([dup.status, dup.body.code]).toEqual([409, 'conflict']);
    await make.client(h, ws, { name: 'STRASSE' });
    expect((await as(h, ws).post('/api/clients', { name: 'Straße' })).status).toBe(409);
    const globex = await make.client(h, ws, { name: 'Globex' });
    expect((await as(h, ws).put(`/api/clients/${globex.id}`, { name: 'acme CORP' })).status).toBe(409);
    expect((await ok(as(h, ws).put(`/api/clients/${globex.id}`, { name: 'GLOBEX' }))).name).toBe('GLOBEX');
    await make.client(h, other, { name: 'Acme Corp' });
  });

  it('lets one of three concurrent creations of one name through (the unique index decides)', async () => {
    const ws = await h.workspace();
    const results = await Promise.all(['Race', 'race', 'RACE'].map((name) => as(h, ws).post('/api/clients', { name })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(Object.keys(await ok(as(h, ws).get('/api/clients')))).toHaveLength(1);
  });

  it('PUT changes any of name, notes and archived and keeps the others; null notes removes them', async () => {
    const ws = await h.workspace();
    const client = await make.client(h, ws, { name: 'Acme', notes: 'N' });
    expect(await ok(as(h, ws).put(`/api/clients/${client.id}`, { archived: true }))).toEqual({ ...client, archived: true });
    expect(await ok(as(h, ws).put(`/api/clients/${client.id}`, { notes: null, name: 'Acme 2' }))).toEqual({
      id: client.id,
      name: 'Acme 2',
      archived: true,
      notes: null,
    });
    expect(await ok(as(h, ws).get(`/api/clients/${client.id}`))).toEqual({ id: client.id, name: 'Acme 2', archived: true, notes: null });
    expect((await as(h, ws).put('/api/clients/unknown', { archived: true })).status).toBe(404);
  });

  it('Administrators write; a User gets 403, a project admin too', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const project = await make.project(h, ws);
    await make.member(h, ws, { project, user, role: 'Administrator' });
    const client = await make.client(h, ws);
    await ok(as(h, ws).put(`/api/projects/${project.id}`, { clientId: client.id }));
    expect((await as(h, ws, user).post('/api/clients', { name: 'Mine' })).status).toBe(403);
    expect((await as(h, ws, user).put(`/api/clients/${client.id}`, { name: 'Mine' })).status).toBe(403);
    expect((await as(h, ws, user).delete(`/api/clients/${client.id}`)).status).toBe(403);
    expect(await ok(as(h, ws).get(`/api/clients/${client.id}`))).toEqual(client);
  });

  it('an administrator reads every client in creation order; a User the clients of the projects they are an unarchived member of, others 404', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const [a, b, c] = [await make.client(h, ws, { name: 'A' }), await make.client(h, ws, { name: 'B' }), await make.client(h, ws, { name: 'C' })];
    const created = await make.client(h, ws, { name: 'D' });
    const mine = await make.project(h, ws, { clientId: a.id });
    await make.member(h, ws, { project: mine, user });
    const archivedProject = await make.project(h, ws, { clientId: created.id });
    await make.member(h, ws, { project: archivedProject, user });
    await ok(as(h, ws).put(`/api/projects/${archivedProject.id}`, { archived: true }));
    const d = await ok(as(h, ws).put(`/api/clients/${created.id}`, { archived: true }));
    const left = await make.project(h, ws, { clientId: b.id });
    await make.member(h, ws, { project: left, user, archived: true });
    await make.project(h, ws, { clientId: c.id });

    expect(Object.keys(await ok(as(h, ws).get('/api/clients')))).toEqual([a.id, b.id, c.id, d.id]);
    expect(await ok(as(h, ws, user).get('/api/clients'))).toEqual({ [a.id]: a, [d.id]: d });
    expect(await ok(as(h, ws, user).get(`/api/clients/${a.id}`))).toEqual(a);
    expect(await ok(as(h, ws, user).get(`/api/clients/${d.id}`))).toEqual(d);
    expect((await as(h, ws, user).get(`/api/clients/${b.id}`)).status).toBe(404);
    expect((await as(h, ws, user).get(`/api/clients/${c.id}`)).status).toBe(404);
    expect((await as(h, ws, user).get('/api/clients/unknown')).status).toBe(404);
    const outsider = await h.user(ws);
    expect(await ok(as(h, ws, outsider).get('/api/clients'))).toEqual({});
  });

  it('another workspace\'s client is 404 to read, change and delete', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const theirs = await make.client(h, other);
    expect((await as(h, ws).get(`/api/clients/${theirs.id}`)).status).toBe(404);
    expect((await as(h, ws).put(`/api/clients/${theirs.id}`, { name: 'Taken' })).status).toBe(404);
    expect((await as(h, ws).delete(`/api/clients/${theirs.id}`)).status).toBe(404);
    expect(await ok(as(h, ws).get('/api/clients'))).toEqual({});
    expect(await ok(as(h, other).get(`/api/clients/${theirs.id}`))).toEqual(theirs);
  });

  it('a client that still has projects, archived ones included, cannot be deleted (409); once they are moved it can', async () => {
    const ws = await h.workspace();
    const client = await make.client(h, ws);
    const project = await make.project(h, ws, { clientId: client.id, archived: true });
    const refused = await as(h, ws).delete(`/api/clients/${client.id}`);
    expect([refused.status, refused.body.code]).toEqual([409, 'conflict']);
    expect(await ok(as(h, ws).get(`/api/clients/${client.id}`))).toEqual(client);
    await ok(as(h, ws).put(`/api/projects/${project.id}`, { clientId: null }));
    expect(await ok(as(h, ws).delete(`/api/clients/${client.id}`))).toEqual({});
    expect((await as(h, ws).get(`/api/clients/${client.id}`)).status).toBe(404);
    expect((await as(h, ws).delete(`/api/clients/${client.id}`)).status).toBe(404);
    expect(await ok(as(h, ws).get('/api/clients'))).toEqual({});
  });

  it('a deletion racing a project given the client: either the deletion wins (the project 422) or the project (the deletion 409)', async () => {
    const ws = await h.workspace();
    for (let i = 0; i < 5; i++) {
      const client = await make.client(h, ws);
      const project = await make.project(h, ws);
      const [deleted, given] = await Promise.all([
        as(h, ws).delete(`/api/clients/${client.id}`),
        as(h, ws).put(`/api/projects/${project.id}`, { clientId: client.id }),
      ]);
      expect([[200, 422], [409, 200]]).toContainEqual([deleted.status, given.status]);
      const stored = await ok(as(h, ws).get(`/api/projects/${project.id}`));
      expect(stored.clientId).toBe(given.status === 200 ? client.id : null);
      expect((await as(h, ws).get(`/api/clients/${client.id}`)).status).toBe(deleted.status === 200 ? 404 : 200);
    }
  });

  it('records client.created, client.updated and client.deleted in the change feed', async () => {
    const ws = await h.workspace();
    const start = await feedEnd(h, ws);
    const client = await make.client(h, ws, { name: 'Acme' });
    const renamed = await ok(as(h, ws).put(`/api/clients/${client.id}`, { name: 'Acme Inc' }));
    const archived = await ok(as(h, ws).put(`/api/clients/${client.id}`, { archived: true }));
    await ok(as(h, ws).delete(`/api/clients/${client.id}`));
    expect(await changesSince(h, ws, start)).toEqual([
      ['client.created', client],
      ['client.updated', renamed],
      ['client.updated', archived],
      ['client.deleted', { id: client.id }],
    ]);
  });

  it('a refused write leaves no event', async () => {
    const ws = await h.workspace();
    const client = await make.client(h, ws, { name: 'Acme' });
    await make.project(h, ws, { clientId: client.id });
    const start = await feedEnd(h, ws);
    expect((await as(h, ws).post('/api/clients', { name: 'acme' })).status).toBe(409);
    expect((await as(h, ws).delete(`/api/clients/${client.id}`)).status).toBe(409);
    expect(await changesSince(h, ws, start)).toEqual([]);
  });

  it('a User reads a client\'s events while a project of theirs has the client, and no other client\'s', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const start = await feedEnd(h, ws);
    const theirs = await make.client(h, ws, { name: 'Theirs' });
    const notTheirs = await make.client(h, ws, { name: 'Not theirs' });
    const project = await make.project(h, ws, { clientId: theirs.id });
    await make.member(h, ws, { project, user });
    const updated = await ok(as(h, ws).put(`/api/clients/${theirs.id}`, { notes: 'Key account' }));
    await ok(as(h, ws).put(`/api/clients/${notTheirs.id}`, { notes: 'Other' }));
    const clientEvents = async () => (await changesSince(h, ws, start, user)).filter(([type]) => type.startsWith('client.'));
    expect(await clientEvents()).toEqual([
      ['client.created', theirs],
      ['client.updated', updated],
    ]);
    expect((await changesSince(h, ws, start)).filter(([type]) => type.startsWith('client.'))).toHaveLength(4);
    await ok(as(h, ws).put(`/api/projects/${project.id}`, { clientId: notTheirs.id }));
    expect((await clientEvents()).map(([type, data]) => [type, data.id])).toEqual([
      ['client.created', notTheirs.id],
      ['client.updated', notTheirs.id],
    ]);
  });

  it('webhooks may subscribe to the client events (they follow the feed)', async () => {
    const ws = await h.workspace();
    const webhook = await ok(
      as(h, ws).post('/api/webhooks', { url: 'https://hooks.example.com/clients', events: ['client.created', 'client.updated', 'client.deleted'] }),
    );
    expect(webhook.events).toEqual(['client.created', 'client.updated', 'client.deleted']);
  });
});
