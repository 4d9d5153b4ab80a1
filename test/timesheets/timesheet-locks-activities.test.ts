import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';

/** docs/rules.md §6 Timesheet locks, as the activity routes apply them: 423 for a User, never for an admin. */

// ISO week 27 of 2026: Monday 2026-06-29 to Sunday 2026-07-05; week 28 starts Monday 2026-07-06.
const IN_WEEK_27 = { startedAt: '2026-07-01T09:00:00Z', endedAt: '2026-07-01T10:00:00Z' };
const IN_WEEK_28 = { startedAt: '2026-07-08T09:00:00Z', endedAt: '2026-07-08T10:00:00Z' };

const expectLocked = (res: { status: number; body: any }) => {
  expect(res.status).toBe(423);
  expect(res.body).toMatchObject({ status: 423, code: 'timesheet-locked' });
};

const lockWeek = (h: Harness, ws: TestWorkspace, user: TestUser, week: number, unlockedTo: string | null = null) =>
  make.lock(h, ws, { user, year: 2026, week, unlockedTo });

describeEachStore('Timesheet locks on activities', (h) => {
  const activity = (ws: TestWorkspace, user: TestUser, times = IN_WEEK_27) => make.activity(h, ws, { owner: user, name: 'Work', ...times });

  it('a User cannot create, change or delete an activity in a locked week: 423, and nothing changes', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const existing = await activity(ws, user);
    await lockWeek(h, ws, user, 27);
    const u = as(h, ws, user);
    expectLocked(await u.post('/api/activities', { name: 'More', ...IN_WEEK_27 }));
    expectLocked(await u.post('/api/activities', { name: 'Timer', startedAt: IN_WEEK_27.startedAt, pending: true }));
    expectLocked(await u.put(`/api/activities/${existing.id}`, { name: 'Renamed' }));
    expectLocked(await u.delete(`/api/activities/${existing.id}`));
    expect((await u.get('/api/activities')).body).toEqual({ [existing.id]: existing });
    // Another week is open.
    await activity(ws, user, IN_WEEK_28);
  });

  it('a lock record holds only its own user: another User writes in that week, and the locked user still gets 423', async () => {
    const ws = await h.workspace();
    const locked = await h.user(ws);
    const other = await h.user(ws);
    await lockWeek(h, ws, locked, 27);
    const created = await activity(ws, other);
    expect(created).toMatchObject({ name: 'Work', userId: other.userId });
    expectLocked(await as(h, ws, locked).post('/api/activities', { name: 'More', ...IN_WEEK_27 }));
  });

  it('the old and the new startedAt count: moving time into or out of a locked week is 423', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const open = await activity(ws, user, IN_WEEK_28);
    const closed = await activity(ws, user, IN_WEEK_27);
    await lockWeek(h, ws, user, 27);
    const u = as(h, ws, user);
    expectLocked(await u.put(`/api/activities/${open.id}`, IN_WEEK_27));
    expectLocked(await u.put(`/api/activities/${closed.id}`, IN_WEEK_28));
    expect((await u.get(`/api/activities/${open.id}`)).body).toEqual(open);
    expect((await u.get(`/api/activities/${closed.id}`)).body).toEqual(closed);
    // Moving within open weeks is fine.
    expect((await u.put(`/api/activities/${open.id}`, { startedAt: '2026-07-09T09:00:00Z', endedAt: '2026-07-09T10:00:00Z' })).status).toBe(200);
  });

  it('an administrator is not held: 200 for their own and for a User\'s activity in a locked week', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const users = await activity(ws, user);
    await lockWeek(h, ws, user, 27);
    await lockWeek(h, ws, ws.admin, 27);
    const admin = as(h, ws);
    expect((await admin.post('/api/activities', { name: 'Admin time', ...IN_WEEK_27 })).status).toBe(200);
    expect((await admin.put(`/api/activities/${users.id}`, { name: 'Fixed by admin' })).status).toBe(200);
    expect((await admin.delete(`/api/activities/${users.id}`)).status).toBe(200);
  });

  it('starting a timer closes the running one only when its week is open: a User\'s timer from a locked week is 423 and keeps running', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const timer = await make.timer(h, ws, { owner: user, startedAt: '2026-07-03T09:00:00Z' });
    await lockWeek(h, ws, user, 27);
    const u = as(h, ws, user);
    // The direct close and the close by a new timer are one change of the running activity.
    expectLocked(await u.put(`/api/activities/${timer.id}`, { endedAt: '2026-07-08T09:00:00Z' }));
    expectLocked(await u.post('/api/activities', { name: 'Next', startedAt: '2026-07-08T09:00:00Z', pending: true }));
    expect((await u.get(`/api/activities/${timer.id}`)).body).toEqual(timer);
    expect(Object.keys((await u.get('/api/activities')).body)).toEqual([timer.id]);
    // An administrator is not held, also when the running timer is their own.
    const adminTimer = await make.timer(h, ws, { startedAt: '2026-07-03T09:00:00Z' });
    await lockWeek(h, ws, ws.admin, 27);
    const next = await as(h, ws).post('/api/activities', { name: 'Next', startedAt: '2026-07-08T09:00:00Z', pending: true });
    expect(next.status).toBe(200);
    expect((await as(h, ws).get(`/api/activities/${adminTimer.id}`)).body.endedAt).toBe('2026-07-08T09:00:00.000Z');
  });

  it('the automatic lock holds weeks at or before the recorded one', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const existing = await activity(ws, user);
    await as(h, ws).put('/api/organization', { lockingTimesheets: { enabled: true } });
    await h.app.db.updateTable('organizations').set({ lock_year: 2026, lock_week: 27 }).where('id', '=', ws.organizationId).execute();
    expectLocked(await as(h, ws, user).put(`/api/activities/${existing.id}`, { name: 'Late edit' }));
    expectLocked(await as(h, ws, user).post('/api/activities', { name: 'Old', startedAt: '2025-12-01T09:00:00Z', endedAt: '2025-12-01T10:00:00Z' }));
    await activity(ws, user, IN_WEEK_28);
  });

  it('a resolved unlock request opens the week for the requester until unlockDuration hours from now', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const other = await h.user(ws);
    await as(h, ws).put('/api/organization', { lockingTimesheets: { enabled: true } });
    await h.app.db.updateTable('organizations').set({ lock_year: 2026, lock_week: 30 }).where('id', '=', ws.organizationId).execute();
    expectLocked(await as(h, ws, user).post('/api/activities', { name: 'Forgot this', ...IN_WEEK_27 }));
    const request = (await as(h, ws, user).post('/api/requests/timesheets/2026/27/unlock')).body;
    expect((await as(h, ws).put(`/api/requests/${request.id}/timesheets/unlock`, { status: 'RESOLVED' })).status).toBe(200);
    const created = await as(h, ws, user).post('/api/activities', { name: 'Forgot this', ...IN_WEEK_27 });
    expect(created.status).toBe(200);
    // Only that user, only that week.
    expectLocked(await as(h, ws, other).post('/api/activities', { name: 'Me too', ...IN_WEEK_27 }));
    expectLocked(await as(h, ws, user).post('/api/activities', { name: 'And this', ...IN_WEEK_28 }));
    // When the window has passed, the week is locked again.
    await h.app.db
      .updateTable('timesheet_locks')
      .set({ unlocked_to: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.userId)
      .execute();
    expectLocked(await as(h, ws, user).delete(`/api/activities/${created.body.id}`));
  });

  it('a lock\'s future unlockedTo lifts it; deleting the lock record opens the week', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await lockWeek(h, ws, user, 27, new Date(Date.now() + 3_600_000).toISOString());
    const created = await activity(ws, user);
    const lock = await lockWeek(h, ws, user, 27);
    expectLocked(await as(h, ws, user).delete(`/api/activities/${created.id}`));
    expect((await as(h, ws).delete(`/api/timesheets/lock/${lock.id}`)).status).toBe(200);
    expect((await as(h, ws, user).delete(`/api/activities/${created.id}`)).status).toBe(200);
  });

  it('the week is taken in the organization time zone: 23:30 on a Sunday in Europe/Berlin is that Sunday\'s week', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await as(h, ws).put('/api/organization', { timeZone: 'Europe/Berlin' });
    await lockWeek(h, ws, user, 27);
    const u = as(h, ws, user);
    // Sunday 2026-07-05 23:30 in Berlin (21:30 UTC): week 27, locked.
    expectLocked(await u.post('/api/activities', { name: 'Late', startedAt: '2026-07-05T23:30:00+02:00', endedAt: '2026-07-05T23:45:00+02:00' }));
    // Monday 00:30 in Berlin (Sunday 22:30 UTC): week 28, open.
    const monday = await u.post('/api/activities', { name: 'Early', startedAt: '2026-07-05T22:30:00Z', endedAt: '2026-07-05T23:00:00Z' });
    expect(monday.status).toBe(200);
    // The same instants in a UTC workspace: Sunday 22:30 UTC is still week 27 there.
    const utc = await h.workspace();
    const utcUser = await h.user(utc);
    await lockWeek(h, utc, utcUser, 27);
    expectLocked(await as(h, utc, utcUser).post('/api/activities', { name: 'Early', startedAt: '2026-07-05T22:30:00Z', endedAt: '2026-07-05T23:00:00Z' }));
    expect(
      (await as(h, utc, utcUser).post('/api/activities', { name: 'Monday', startedAt: '2026-07-06T00:00:00Z', endedAt: '2026-07-06T00:30:00Z' })).status,
    ).toBe(200);
  });

  it('the activity operations document 423 in the OpenAPI document', async () => {
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    expect(doc.paths['/activities'].post.responses['423']).toBeDefined();
    expect(doc.paths['/activities/{activityId}'].put.responses['423']).toBeDefined();
    expect(doc.paths['/activities/{activityId}'].delete.responses['423']).toBeDefined();
  });
});
