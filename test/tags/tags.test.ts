import { afterAll, beforeAll, expect, it } from 'vitest';
import { feedEnd, readFeed } from '../changes/feed-support.js';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { deliverWebhooks, loadConfig } from '../support/src.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

/** docs/rules.md §6 Tags, through the HTTP API. */

const conflictProblem = (name: string) => ({
  type: 'urn:timetrack:problem:conflict',
  title: 'Conflict',
  status: 409,
  code: 'conflict',
  detail: `A tag named "${name}" already exists in this workspace.`,
});

async function tag(h: Harness, ws: TestWorkspace, name: string, user = ws.admin) {
  return ok(as(h, ws, user).post('/api/tags', { name }));
}

const listing = async (h: Harness, ws: TestWorkspace, user = ws.admin) => ok(as(h, ws, user).get('/api/tags'));

describeEachStore('Tags (docs/rules.md §6 Tags)', (h) => {
  it('GET /tags is an empty map in a new workspace', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/tags');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });

  it('every user of the workspace creates a tag: {id, name, archived: false}, the name trimmed, unknown and server-owned fields ignored', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).post('/api/tags', { name: '  Meeting ', id: 'mine', archived: true, color: 'red' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), name: 'Meeting', archived: false });
    expect(res.body.id).not.toBe('mine');
    expect(await listing(h, ws)).toEqual({ [res.body.id]: res.body });
  });

  it('every user reads every tag of the workspace, archived ones included, by id in creation order; another workspace\'s are not there', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const user = await h.user(ws);
    const a = await tag(h, ws, 'Bug', user);
    const b = await tag(h, ws, 'Overtime');
    const c = await tag(h, ws, 'Admin');
    await tag(h, other, 'Elsewhere');
    const archived = await ok(as(h, ws).put(`/api/tags/${b.id}`, { archived: true }));
    const expected = { [a.id]: a, [b.id]: archived, [c.id]: c };
    for (const reader of [ws.admin, user, await h.user(ws)]) {
      const map = await listing(h, ws, reader);
      expect(map).toEqual(expected);
      expect(Object.keys(map)).toEqual([a.id, b.id, c.id]);
    }
  });

  it('a name blank once trimmed is 422 at /body/name; longer than 100 characters is 422 at /body/name; 100 characters (counted as code points) are fine', async () => {
    const ws = await h.workspace();
    for (const name of ['', '   ']) {
      const res = await as(h, ws).post('/api/tags', { name });
      expect(res.status).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.errors).toEqual([{ pointer: '/body/name', message: expect.any(String) }]);
    }
    expect((await as(h, ws).post('/api/tags', { name: '   ' })).body.errors[0].message).toBe('must not be blank');
    const tooLong = await as(h, ws).post('/api/tags', { name: 'x'.repeat(101) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual([{ pointer: '/body/name', message: 'must NOT have more than 100 characters' }]);
    for (const body of [{}, { name: 7 }, { name: null }]) {
      const res = await as(h, ws).post('/api/tags', body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/body/name');
    }
    expect((await as(h, ws).post('/api/tags', { name: 'x'.repeat(100) })).status).toBe(200);
    expect((await as(h, ws).post('/api/tags', { name: '🕐'.repeat(100) })).status).toBe(200);
    const first = await tag(h, ws, 'Keep');
    const blank = await as(h, ws).put(`/api/tags/${first.id}`, { name: ' ' });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual([{ pointer: '/body/name', message: 'must not be blank' }]);
    expect((await as(h, ws).put(`/api/tags/${first.id}`, { name: 'y'.repeat(101) })).status).toBe(422);
    expect(Object.values(await listing(h, ws)).map((t: any) => t.name)).toEqual(['x'.repeat(100), '🕐'.repeat(100), 'Keep']);
  });

  it('names are unique in the workspace regardless of case (non-ASCII letters too, archived tags included): 409, and nothing is stored', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const meeting = await tag(h, ws, 'Meeting');
    const overtime = await tag(h, ws, 'Überstunden');
    await ok(as(h, ws).put(`/api/tags/${overtime.id}`, { archived: true }));
    for (const [name, taken] of [['MEETING', 'MEETING'], [' meeting ', 'meeting'], ['überSTUNDEN', 'überSTUNDEN'], ['ÜBERSTUNDEN', 'ÜBERSTUNDEN']]) {
      const res = await as(h, ws, user).post('/api/tags', { name });
      expect(res.status, name).toBe(409);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toEqual(conflictProblem(taken));
    }
    expect(Object.keys(await listing(h, ws))).toEqual([meeting.id, overtime.id]);
    // Another workspace has its own names.
    expect((await as(h, await h.workspace()).post('/api/tags', { name: 'Meeting' })).status).toBe(200);
  });

  it('two creations of one name at the same moment: one is 200, the other 409', async () => {
    const ws = await h.workspace();
    const results = await Promise.all(['Review', 'REVIEW', 'review'].map((name) => as(h, ws).post('/api/tags', { name })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(Object.values(await listing(h, ws))).toHaveLength(1);
  });

  it('an Administrator renames, archives and unarchives a tag; PUT is partial, and the answer is what GET /tags then holds', async () => {
    const ws = await h.workspace();
    const created = await tag(h, ws, 'Bug');
    const renamed = await ok(as(h, ws).put(`/api/tags/${created.id}`, { name: '  Defect ' }));
    expect(renamed).toEqual({ id: created.id, name: 'Defect', archived: false });
    const archived = await ok(as(h, ws).put(`/api/tags/${created.id}`, { archived: true }));
    expect(archived).toEqual({ id: created.id, name: 'Defect', archived: true });
    expect(await ok(as(h, ws).put(`/api/tags/${created.id}`, {}))).toEqual(archived);
    const both = await ok(as(h, ws).put(`/api/tags/${created.id}`, { name: 'Bugfix', archived: false, id: 'other' }));
    expect(both).toEqual({ id: created.id, name: 'Bugfix', archived: false });
    expect(await listing(h, ws)).toEqual({ [created.id]: both });
  });

  it('renaming onto another tag\'s name (any case) is 409 and changes nothing; renaming to its own name in another case is allowed', async () => {
    const ws = await h.workspace();
    const bug = await tag(h, ws, 'Bug');
    const call = await tag(h, ws, 'Call');
    const res = await as(h, ws).put(`/api/tags/${call.id}`, { name: 'BUG', archived: true });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(conflictProblem('BUG'));
    expect(await listing(h, ws)).toEqual({ [bug.id]: bug, [call.id]: call });
    expect(await ok(as(h, ws).put(`/api/tags/${bug.id}`, { name: 'BUG' }))).toEqual({ id: bug.id, name: 'BUG', archived: false });
  });

  it('renaming, archiving and deleting are for Administrators: a User gets 403 (also the tag\'s creator, also for an unknown id) and nothing changes', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const own = await tag(h, ws, 'Mine', user);
    for (const [method, url, body] of [
      ['PUT', `/api/tags/${own.id}`, { name: 'Renamed' }],
      ['PUT', `/api/tags/${own.id}`, { archived: true }],
      ['DELETE', `/api/tags/${own.id}`, undefined],
      ['PUT', '/api/tags/unknown', { name: 'X' }],
      ['DELETE', '/api/tags/unknown', undefined],
    ] as const) {
      const res = await h.call(method, url, { host: ws.host, token: user.token, body });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect(await listing(h, ws, user)).toEqual({ [own.id]: own });
  });

  it('an unknown tag id, or another workspace\'s, is 404 to an Administrator (PUT and DELETE), and the other workspace\'s tag is untouched', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const foreign = await tag(h, other, 'Theirs');
    for (const id of ['unknown', foreign.id]) {
      const put = await as(h, ws).put(`/api/tags/${id}`, { name: 'Mine' });
      expect(put.status).toBe(404);
      expect(put.body).toMatchObject({ code: 'not-found', detail: 'No such tag.' });
      const del = await as(h, ws).delete(`/api/tags/${id}`);
      expect(del.status).toBe(404);
      expect(del.body.code).toBe('not-found');
    }
    expect(await listing(h, other)).toEqual({ [foreign.id]: foreign });
    expect(await listing(h, ws)).toEqual({});
  });

  it('an Administrator deletes a tag: {} and it is gone from GET /tags; its name is free again; deleting it again is 404', async () => {
    const ws = await h.workspace();
    const gone = await tag(h, ws, 'Gone');
    const kept = await tag(h, ws, 'Kept');
    const res = await as(h, ws).delete(`/api/tags/${gone.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await listing(h, ws)).toEqual({ [kept.id]: kept });
    expect((await as(h, ws).delete(`/api/tags/${gone.id}`)).status).toBe(404);
    expect((await as(h, ws).put(`/api/tags/${gone.id}`, { name: 'Back' })).status).toBe(404);
    expect((await as(h, ws).post('/api/tags', { name: 'GONE' })).status).toBe(200);
  });

  it('change feed: tag.created, tag.updated (renaming and archiving), tag.deleted with {id}, each naming its actor', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const start = await feedEnd(h, ws);
    const created = await tag(h, ws, 'Meeting', user);
    const renamed = await ok(as(h, ws).put(`/api/tags/${created.id}`, { name: 'Meetings' }));
    const archived = await ok(as(h, ws).put(`/api/tags/${created.id}`, { archived: true }));
    await ok(as(h, ws).delete(`/api/tags/${created.id}`));
    const events = (await readFeed(h, ws, ws.admin, start)).events;
    expect(events.map((e) => [e.type, e.actorId, e.data])).toEqual([
      ['tag.created', user.userId, created],
      ['tag.updated', ws.admin.userId, renamed],
      ['tag.updated', ws.admin.userId, archived],
      ['tag.deleted', ws.admin.userId, { id: created.id }],
    ]);
  });

  it('change feed: every user of the workspace reads the tag events (a User in no project too); refused writes leave none; another workspace\'s feed has none', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const creator = await h.user(ws);
    const outsider = await h.user(ws);
    const start = await feedEnd(h, ws, outsider);
    const otherStart = await feedEnd(h, other);
    const created = await tag(h, ws, 'Travel', creator);
    expect((await as(h, ws, creator).post('/api/tags', { name: 'TRAVEL' })).status).toBe(409);
    expect((await as(h, ws, creator).put(`/api/tags/${created.id}`, { name: 'Trips' })).status).toBe(403);
    await ok(as(h, ws).put(`/api/tags/${created.id}`, { archived: true }));
    await ok(as(h, ws).delete(`/api/tags/${created.id}`));
    const types = ['tag.created', 'tag.updated', 'tag.deleted'];
    for (const reader of [outsider, creator, ws.admin]) {
      const seen = (await readFeed(h, ws, reader, start)).events.filter((e) => e.type.startsWith('tag.'));
      expect(seen.map((e) => e.type)).toEqual(types);
    }
    expect((await readFeed(h, other, other.admin, otherStart)).events).toEqual([]);
  });
});

/** Webhooks deliver to a receiver on this machine: loopback and http:// allowed, and a short timeout. */
const LOCAL = { webhooks: { ...loadConfig({}).webhooks, allowPrivate: true, timeoutMs: 1_000, leaseMs: 5_000 } };

describeEachStore(
  'Tags: webhooks follow the feed (docs/rules.md §6 Tags)',
  (h) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(async () => {
      await receiver.close();
    });

    it('a webhook taking tag.created and tag.deleted gets those events, with the record (or {id}) as data, and not tag.updated', async () => {
      const ws = await h.workspace();
      const hook = await ok(as(h, ws).post('/api/webhooks', { url: receiver.url(`/tags/${ws.domain}`), events: ['tag.created', 'tag.deleted'] }));
      const created = await tag(h, ws, 'Release');
      await ok(as(h, ws).put(`/api/tags/${created.id}`, { archived: true }));
      await ok(as(h, ws).delete(`/api/tags/${created.id}`));
      const resolver = async () => [{ address: '127.0.0.1', family: 4 }];
      for (let i = 0; i < 10; i++) {
        const pass = await deliverWebhooks(h.app, { resolver });
        if (pass.succeeded + pass.failed === 0) break;
      }
      const mine = receiver.received.filter((r) => r.path === `/tags/${ws.domain}`).map((r) => JSON.parse(r.body));
      expect(mine.map((e) => [e.type, e.data])).toEqual([
        ['ping', { webhookId: hook.id }],
        ['tag.created', created],
        ['tag.deleted', { id: created.id }],
      ]);
      await ok(as(h, ws).delete(`/api/webhooks/${hook.id}`));
    });
  },
  LOCAL,
);
