import { expect, it } from 'vitest';
import { readFeed, feedEnd } from '../changes/feed-support.js';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { listMessages } from '../support/src.js';

/** docs/rules.md §6 Users (invited, then active) and §6 Change feed (`user.joined`). */

const TOKEN = /tto_[A-Za-z0-9_-]{43}/;

async function invitationToken(h: Harness, ws: TestWorkspace, to: string): Promise<string> {
  const message = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.to === to && m.kind === 'invitation').at(-1);
  expect(message, `an invitation to ${to}`).toBeDefined();
  return TOKEN.exec(message!.body)![0];
}

const redeem = (h: Harness, ws: TestWorkspace, token: string) => h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token } });
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describeEachStore('Users: invited until their first sign-in', (h) => {
  it('an invited user has joinedAt null, in the answer, GET one and the listing alike, also after a repeated invitation', async () => {
    const ws = await h.workspace();
    const invited = await ok(as(h, ws).post('/api/users', { email: 'dana@example.com', name: 'Dana' }));
    expect(invited.joinedAt).toBe(null);
    expect(await ok(as(h, ws).post('/api/users', { email: 'dana@example.com' }))).toEqual(invited);
    expect(await ok(as(h, ws).get(`/api/users/${invited.id}`))).toEqual(invited);
    expect((await ok(as(h, ws).get('/api/users')))[invited.id]).toEqual(invited);
  });

  it('the first sign-in through the invitation link joins the user (joinedAt set once), with one user.joined event acted by them', async () => {
    const ws = await h.workspace();
    const invited = await ok(as(h, ws).post('/api/users', { email: 'erin@example.com', name: 'Erin' }));
    const start = await feedEnd(h, ws);
    const before = new Date().toISOString();
    const res = await redeem(h, ws, await invitationToken(h, ws, 'erin@example.com'));
    expect(res.status).toBe(200);
    const joined = await ok(as(h, ws).get(`/api/users/${invited.id}`));
    expect(joined).toEqual({ ...invited, joinedAt: expect.stringMatching(ISO) });
    expect(joined.joinedAt >= before).toBe(true);
    expect((await ok(as(h, ws).get('/api/users')))[invited.id]).toEqual(joined);
    const { events } = await readFeed(h, ws, ws.admin, start);
    expect(events.map((event) => [event.type, event.actorId, event.data])).toEqual([['user.joined', invited.id, joined]]);
    // A later sign-in (a second invitation's link) and a repeated invitation change nothing.
    await ok(as(h, ws).post('/api/users', { email: 'erin@example.com' }));
    const afterInvite = await feedEnd(h, ws);
    expect((await redeem(h, ws, await invitationToken(h, ws, 'erin@example.com'))).status).toBe(200);
    expect(await ok(as(h, ws).get(`/api/users/${invited.id}`))).toEqual(joined);
    expect((await readFeed(h, ws, ws.admin, afterInvite)).events).toEqual([]);
  });

  it('signing in to one workspace joins the account\'s user there only', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const here = await ok(as(h, ws).post('/api/users', { email: 'fay@example.com' }));
    const there = await ok(as(h, other).post('/api/users', { email: 'fay@example.com' }));
    expect((await redeem(h, ws, await invitationToken(h, ws, 'fay@example.com'))).status).toBe(200);
    expect((await ok(as(h, ws).get(`/api/users/${here.id}`))).joinedAt).toMatch(ISO);
    expect((await ok(as(h, other).get(`/api/users/${there.id}`))).joinedAt).toBe(null);
  });
});
