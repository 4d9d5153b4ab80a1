import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';

/** docs/rules.md §6 Requests and Timesheet locks: an approved week is locked for its person, in the approval's transaction. */

// ISO week 27 of 2026: Monday 2026-06-29 to Sunday 2026-07-05; week 28 starts Monday 2026-07-06.
const IN_WEEK_27 = { startedAt: '2026-07-01T09:00:00Z', endedAt: '2026-07-01T10:00:00Z' };
const IN_WEEK_28 = { startedAt: '2026-07-08T09:00:00Z', endedAt: '2026-07-08T10:00:00Z' };

const expectLocked = (res: { status: number; body: any }) => {
  expect(res.status).toBe(423);
  expect(res.body).toMatchObject({ status: 423, code: 'timesheet-locked' });
};

async function submitted(h: Harness, ws: TestWorkspace, user: TestUser, week = 27) {
  const res = await as(h, ws, user).post(`/api/requests/timesheets/2026/${week}/approvals`);
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

const resolve = (h: Harness, ws: TestWorkspace, requestId: string, status: 'RESOLVED' | 'REJECTED') =>
  as(h, ws).put(`/api/requests/${requestId}/timesheets/approvals`, { status });

const locksOf = async (h: Harness, ws: TestWorkspace) => Object.values((await as(h, ws).get('/api/timesheets/locks')).body) as any[];

describeEachStore('Timesheet approval locks the week', (h) => {
  it('an approved week is read-only for its User: creating, changing and deleting an activity in it are 423, other weeks stay open', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const existing = await make.activity(h, ws, { owner: user, name: 'Work', ...IN_WEEK_27 });
    const request = await submitted(h, ws, user);
    expect((await resolve(h, ws, request.id, 'RESOLVED')).status).toBe(200);

    const u = as(h, ws, user);
    expectLocked(await u.post('/api/activities', { name: 'More', ...IN_WEEK_27 }));
    expectLocked(await u.put(`/api/activities/${existing.id}`, { name: 'Renamed' }));
    expectLocked(await u.delete(`/api/activities/${existing.id}`));
    expect((await u.get('/api/activities')).body).toEqual({ [existing.id]: existing });
    expect((await u.post('/api/activities', { name: 'Next week', ...IN_WEEK_28 })).status).toBe(200);
    // Another User's week 27 is not theirs to be held by.
    const other = await h.user(ws);
    expect((await as(h, ws, other).post('/api/activities', { name: 'Theirs', ...IN_WEEK_27 })).status).toBe(200);
  });

  it('the approval writes a lock record with unlockedTo null, listed by GET /timesheets/locks', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const request = await submitted(h, ws, user);
    await resolve(h, ws, request.id, 'RESOLVED');
    expect(await locksOf(h, ws)).toEqual([
      { id: expect.any(String), userId: user.userId, year: 2026, week: 27, unlockedTo: null, createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);
  });

  it('the change feed has timesheet.locked, then request.resolved: the resolution\'s effect comes first', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const request = await submitted(h, ws, user);
    await resolve(h, ws, request.id, 'RESOLVED');
    const [lock] = await locksOf(h, ws);
    const events = (await as(h, ws).get('/api/changes', undefined, { query: { limit: '1000' } })).body.events as any[];
    const last = events.slice(-2);
    expect(last.map((event) => event.type)).toEqual(['timesheet.locked', 'request.resolved']);
    expect(last[0]).toMatchObject({ actorId: ws.admin.userId, data: lock });
    expect(last[1]).toMatchObject({ actorId: ws.admin.userId, data: { id: request.id, status: 'RESOLVED', year: 2026, week: 27 } });
  });

  it('a rejected approval leaves the week open: no lock, no timesheet event, the User writes in it', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const request = await submitted(h, ws, user);
    expect((await resolve(h, ws, request.id, 'REJECTED')).status).toBe(200);
    expect(await locksOf(h, ws)).toEqual([]);
    const events = (await as(h, ws).get('/api/changes', undefined, { query: { limit: '1000' } })).body.events as any[];
    expect(events.filter((event) => event.type.startsWith('timesheet.'))).toEqual([]);
    expect((await as(h, ws, user).post('/api/activities', { name: 'More', ...IN_WEEK_27 })).status).toBe(200);
  });

  it('approving a week the administrator had opened for a while locks it outright: the record keeps its id and takes unlockedTo null', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const opened = (await make.lock(h, ws, { user, year: 2026, week: 27, unlockedTo: '2999-01-01T00:00:00Z' })) as { id: string; createdAt: string };
    const request = await submitted(h, ws, user);
    await resolve(h, ws, request.id, 'RESOLVED');
    expect(await locksOf(h, ws)).toMatchObject([{ id: opened.id, createdAt: opened.createdAt, unlockedTo: null }]);
    expectLocked(await as(h, ws, user).post('/api/activities', { name: 'More', ...IN_WEEK_27 }));
  });

  it('an administrator unlocks an approved week: deleting the lock, or posting it with unlockedTo, opens it for the User again', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const u = as(h, ws, user);
    await resolve(h, ws, (await submitted(h, ws, user, 27)).id, 'RESOLVED');
    await resolve(h, ws, (await submitted(h, ws, user, 28)).id, 'RESOLVED');
    const [week27] = (await locksOf(h, ws)).filter((lock) => lock.week === 27);
    expect((await as(h, ws).delete(`/api/timesheets/lock/${week27.id}`)).status).toBe(200);
    expect((await u.post('/api/activities', { name: 'After unlock', ...IN_WEEK_27 })).status).toBe(200);
    await make.lock(h, ws, { user, year: 2026, week: 28, unlockedTo: '2999-01-01T00:00:00Z' });
    expect((await u.post('/api/activities', { name: 'After unlock', ...IN_WEEK_28 })).status).toBe(200);
  });

  it('the approval and the lock are one transaction: when the lock cannot be written, the request stays PENDING and nothing is recorded', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const request = await submitted(h, ws, user);
    await refuseLocksOf(h, user.userId);
    const before = (await as(h, ws).get('/api/changes', undefined, { query: { limit: '1000' } })).body.events.length;
    const res = await resolve(h, ws, request.id, 'RESOLVED');
    expect(res.status).toBe(500);
    expect((await as(h, ws).get(`/api/requests/${request.id}`)).body).toMatchObject({ status: 'PENDING' });
    expect(await locksOf(h, ws)).toEqual([]);
    expect((await as(h, ws).get('/api/changes', undefined, { query: { limit: '1000' } })).body.events).toHaveLength(before);
    expect((await as(h, ws, user).post('/api/activities', { name: 'Still open', ...IN_WEEK_27 })).status).toBe(200);
  });
});

/** A trigger that makes every lock record of one user fail to be written: it stands in for a failing write. */
async function refuseLocksOf(h: Harness, userId: string): Promise<void> {
  const db = h.app.db;
  const name = `refuse_lock_${userId.replace(/[^a-zA-Z0-9]/g, '')}`;
  if (h.store === 'sqlite') {
    await sql
      .raw(`create trigger ${name} before insert on timesheet_locks when new.user_id = '${userId}' begin select raise(abort, 'lock refused (test)'); end`)
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create or replace function ${name}() returns trigger language plpgsql as $$
       begin
         if new.user_id = '${userId}' then raise exception 'lock refused (test)'; end if;
         return new;
       end $$`,
    )
    .execute(db);
  await sql.raw(`create trigger ${name} before insert on timesheet_locks for each row execute function ${name}()`).execute(db);
}
