import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok } from '../support/harness.js';

const PALETTE = ['#ef4444', '#f97316', '#f59e0b', '#84cc16', '#22c55e', '#14b8a6', '#06b6d4', '#3b82f6', '#6366f1', '#8b5cf6', '#d946ef', '#ec4899'];

describeEachStore('Projects: clientId and color (docs/rules.md §6 Projects)', (h) => {
  it('clientId is always in the answer, null when none; POST and PUT set it, null unsets it', async () => {
    const ws = await h.workspace();
    const client = await make.client(h, ws);
    const plain = await make.project(h, ws);
    expect(plain.clientId).toBeNull();
    const withClient = await make.project(h, ws, { clientId: client.id });
    expect(withClient.clientId).toBe(client.id);
    expect((await ok(as(h, ws).get(`/api/projects/${withClient.id}`))).clientId).toBe(client.id);
    const moved = await ok(as(h, ws).put(`/api/projects/${plain.id}`, { clientId: client.id }));
    expect(moved).toEqual({ ...plain, clientId: client.id });
    expect(await ok(as(h, ws).put(`/api/projects/${plain.id}`, { name: 'Renamed' }))).toEqual({ ...moved, name: 'Renamed' });
    expect(await ok(as(h, ws).put(`/api/projects/${plain.id}`, { clientId: null }))).toEqual({ ...plain, name: 'Renamed' });
    const listed = await ok(as(h, ws).get('/api/projects'));
    expect(listed[withClient.id]).toEqual(withClient);
    expect(listed[plain.id].clientId).toBeNull();
  });

  it('an unknown, another workspace\'s or an archived client is 422 at /body/clientId, and nothing changes', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const foreign = await make.client(h, other);
    const archived = await make.client(h, ws, { archived: true });
    const project = await make.project(h, ws);
    for (const clientId of ['unknown', foreign.id, archived.id, 7, 'x'.repeat(65)]) {
      const created = await as(h, ws).post('/api/projects', { name: `P ${String(clientId).slice(0, 10)}`, clientId });
      expect([created.status, created.body.errors?.[0].pointer], String(clientId)).toEqual([422, '/body/clientId']);
      const updated = await as(h, ws).put(`/api/projects/${project.id}`, { clientId, name: 'Changed' });
      expect([updated.status, updated.body.errors?.[0].pointer], String(clientId)).toEqual([422, '/body/clientId']);
    }
    expect(await ok(as(h, ws).get(`/api/projects/${project.id}`))).toEqual(project);
    expect(Object.keys(await ok(as(h, ws).get('/api/projects')))).toEqual([project.id]);
  });

  it('a project keeps a client archived after it was given, also through a PUT that sends the same clientId', async () => {
    const ws = await h.workspace();
    const client = await make.client(h, ws);
    const project = await make.project(h, ws, { clientId: client.id });
    await ok(as(h, ws).put(`/api/clients/${client.id}`, { archived: true }));
    expect((await ok(as(h, ws).get(`/api/projects/${project.id}`))).clientId).toBe(client.id);
    expect(await ok(as(h, ws).put(`/api/projects/${project.id}`, { clientId: client.id, notes: 'kept' }))).toEqual({ ...project, notes: 'kept' });
    const other = await make.project(h, ws);
    expect((await as(h, ws).put(`/api/projects/${other.id}`, { clientId: client.id })).status).toBe(422);
  });

  it('color defaults to the palette\'s at the number of projects the workspace has, round again after the twelfth', async () => {
    const ws = await h.workspace();
    const colors: string[] = [];
    for (let i = 0; i < 13; i++) colors.push((await make.project(h, ws, { name: `P${i}` })).color);
    expect(colors).toEqual([...PALETTE, PALETTE[0]]);
    const first = Object.values(await ok(as(h, ws).get('/api/projects')))[0] as { id: string };
    await ok(as(h, ws).delete(`/api/projects/${first.id}`));
    expect((await make.project(h, ws, { name: 'After a deletion' })).color).toBe(PALETTE[0]);
  });

  it('color is lowercase #rrggbb as given on POST and PUT; anything else is 422 at /body/color', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws, { color: '#00aa11' });
    expect(project.color).toBe('#00aa11');
    expect(await ok(as(h, ws).put(`/api/projects/${project.id}`, { color: '#123abc' }))).toEqual({ ...project, color: '#123abc' });
    for (const color of ['#00AA11', '#fff', 'red', '00aa11', '#00aa11 ', '#00aa1g', null, 5]) {
      const created = await as(h, ws).post('/api/projects', { name: `C ${String(color)}`, color });
      expect([created.status, created.body.errors?.[0].pointer], String(color)).toEqual([422, '/body/color']);
      const updated = await as(h, ws).put(`/api/projects/${project.id}`, { color });
      expect([updated.status, updated.body.errors?.[0].pointer], String(color)).toEqual([422, '/body/color']);
    }
    expect((await ok(as(h, ws).get(`/api/projects/${project.id}`))).color).toBe('#123abc');
  });

  it('the change feed carries clientId and color with the project', async () => {
    const ws = await h.workspace();
    const client = await make.client(h, ws);
    const project = await make.project(h, ws, { clientId: client.id, color: '#abcdef' });
    const res = await ok(as(h, ws).get('/api/changes', undefined, { query: { limit: '1000' } }));
    const created = res.events.find((event: { type: string; data: { id: string } }) => event.type === 'project.created' && event.data.id === project.id);
    expect(created.data).toEqual(project);
    expect(project).toMatchObject({ clientId: client.id, color: '#abcdef' });
  });
});
