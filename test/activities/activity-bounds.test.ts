import { expect, it } from 'vitest';
import { as, describeEachStore, type TestUser, type TestWorkspace } from '../support/harness.js';
import { make } from '../support/factories/index.js';

/** docs/rules.md §6 Activities and timers: a timer starts at most 24 hours ahead; an activity is at most 31 days long. */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

const expectInvalidAt = (res: { status: number; body: any }, pointer: string) => {
  expect(res.status).toBe(422);
  expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
};

describeEachStore('Activity bounds', (h) => {
  const runningOf = async (ws: TestWorkspace, user: TestUser) =>
    Object.values<any>((await as(h, ws, user).get('/api/activities')).body).filter((a) => a.endedAt === null);

  it('a timer starts at most 24 hours after now: 422 at startedAt beyond, and the running timer is left running', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const u = as(h, ws, user);
    const now = Date.now();
    const timer = await make.timer(h, ws, { owner: user, startedAt: iso(now - HOUR) });
    for (const startedAt of [iso(now + DAY + HOUR), '9999-12-31T00:00:00Z']) {
      expectInvalidAt(await u.post('/api/activities', { name: 'Later', startedAt, pending: true }), '/body/startedAt');
    }
    expect(await runningOf(ws, user)).toEqual([timer]);
    // Moving a running timer, or reopening an activity, into the far future is the same start.
    expectInvalidAt(await u.put(`/api/activities/${timer.id}`, { startedAt: iso(now + 2 * DAY) }), '/body/startedAt');
    const closed = await make.activity(h, ws, { owner: user, startedAt: iso(now + 3 * DAY), endedAt: iso(now + 3 * DAY + HOUR) });
    expect((await u.put(`/api/activities/${timer.id}`, { endedAt: iso(now) })).status).toBe(200);
    expectInvalidAt(await u.put(`/api/activities/${closed.id}`, { endedAt: null }), '/body/startedAt');
    // Within the bound: fine.
    const soon = await u.post('/api/activities', { name: 'Soon', startedAt: iso(now + 23 * HOUR), pending: true });
    expect(soon.status).toBe(200);
  });

  it('an activity is at most 31 days long: 422 at the field that makes it longer, whichever write', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const u = as(h, ws, user);
    const start = Date.parse('2026-07-01T00:00:00Z');
    expectInvalidAt(
      await u.post('/api/activities', { name: 'Long', startedAt: iso(start), endedAt: iso(start + 31 * DAY + 1000) }),
      '/body/endedAt',
    );
    expectInvalidAt(
      await u.post('/api/activities', { name: 'Centuries', startedAt: '0001-01-01T00:00:00Z', endedAt: '9999-12-31T23:59:59Z' }),
      '/body/endedAt',
    );
    const month = await make.activity(h, ws, { owner: user, startedAt: iso(start), endedAt: iso(start + 31 * DAY) });
    expectInvalidAt(await u.put(`/api/activities/${month.id}`, { startedAt: iso(start - 1000) }), '/body/startedAt');
    expectInvalidAt(await u.put(`/api/activities/${month.id}`, { endedAt: iso(start + 32 * DAY) }), '/body/endedAt');
    expect((await u.get(`/api/activities/${month.id}`)).body).toEqual(month);
    // A running timer's length counts when it is closed, by PUT or by starting the next timer.
    const timer = await make.timer(h, ws, { owner: user, startedAt: iso(start) });
    expectInvalidAt(await u.put(`/api/activities/${timer.id}`, { endedAt: iso(start + 40 * DAY) }), '/body/endedAt');
    const next = await u.post('/api/activities', { name: 'Next', startedAt: iso(start + 40 * DAY), pending: true });
    expectInvalidAt(next, '/body/startedAt');
    expect(next.body.errors[0].message).toMatch(/stop it first/);
    expect(await runningOf(ws, user)).toEqual([timer]);
    expect((await u.post('/api/activities', { name: 'Next', startedAt: iso(start + 30 * DAY), pending: true })).status).toBe(200);
    expect((await u.get(`/api/activities/${timer.id}`)).body.endedAt).toBe(iso(start + 30 * DAY));
  });

  it('documents both bounds in the OpenAPI document of the activity writes', async () => {
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    for (const [path, method] of [['/activities', 'post'], ['/activities/{activityId}', 'put']]) {
      const op = doc.paths[path][method];
      expect(op.responses['422'].description, `${method} ${path}`).toMatch(/31 days/);
      expect(op.responses['422'].description, `${method} ${path}`).toMatch(/24 hours/);
    }
  });
});
