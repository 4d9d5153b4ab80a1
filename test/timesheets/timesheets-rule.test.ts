import { expect, it } from 'vitest';
import { as, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { assertActivityWeekOpen, type Role } from '../support/src.js';

/**
 * docs/rules.md §6 Timesheet locks: the lock rule itself (src/areas/timesheets/rules.ts), called with the
 * data an activity write has. The activity routes' use of it is proven in timesheet-locks-activities.
 */

// ISO week 27 of 2026 runs from Monday 2026-06-29 to Sunday 2026-07-05.
const SUNDAY_2330_BERLIN = '2026-07-05T21:30:00.000Z';
const MONDAY_0030_BERLIN = '2026-07-05T22:30:00.000Z';
const WEDNESDAY_WEEK_27 = '2026-07-01T10:00:00.000Z';
const WEDNESDAY_WEEK_28 = '2026-07-08T10:00:00.000Z';

describeEachStore('The timesheet lock rule', (h) => {
  const check = (ws: TestWorkspace, userId: string, startedAt: string, role: Role = 'User') =>
    assertActivityWeekOpen(h.app.db, { organizationId: ws.organizationId, userId, role, startedAt });
  const locked = async (promise: Promise<void>) => {
    await expect(promise).rejects.toMatchObject({ status: 423, code: 'timesheet-locked' });
  };

  async function autoLocked(h: Harness, ws: TestWorkspace, enabled: boolean, year: number, week: number) {
    await h.app.db
      .updateTable('organizations')
      .set({ locking_enabled: enabled ? 1 : 0, lock_year: year, lock_week: week })
      .where('id', '=', ws.organizationId)
      .execute();
  }

  it('with no lock record and automatic locking off, every week is open', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await expect(check(ws, user.userId, WEDNESDAY_WEEK_27)).resolves.toBeUndefined();
  });

  it('automatic locking holds weeks at or before the recorded week, not after; disabled, it holds none', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await autoLocked(h, ws, true, 2026, 27);
    await locked(check(ws, user.userId, WEDNESDAY_WEEK_27));
    await locked(check(ws, user.userId, '2025-03-01T10:00:00.000Z'));
    await expect(check(ws, user.userId, WEDNESDAY_WEEK_28)).resolves.toBeUndefined();
    await autoLocked(h, ws, false, 2026, 27);
    await expect(check(ws, user.userId, WEDNESDAY_WEEK_27)).resolves.toBeUndefined();
  });

  it('a lock record holds that user\'s week only', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const other = await h.user(ws);
    await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 27 });
    await locked(check(ws, user.userId, WEDNESDAY_WEEK_27));
    await expect(check(ws, user.userId, WEDNESDAY_WEEK_28)).resolves.toBeUndefined();
    await expect(check(ws, other.userId, WEDNESDAY_WEEK_27)).resolves.toBeUndefined();
  });

  it('a future unlockedTo lifts the lock (the record\'s and the automatic one) until then; a past one does not', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await autoLocked(h, ws, true, 2026, 30);
    const lock = (unlockedTo: string | null) =>
      as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 27, unlockedTo });
    await lock(new Date(Date.now() + 3_600_000).toISOString());
    await expect(check(ws, user.userId, WEDNESDAY_WEEK_27)).resolves.toBeUndefined();
    // Week 28 has no record: the automatic lock still holds it.
    await locked(check(ws, user.userId, WEDNESDAY_WEEK_28));
    await lock(new Date(Date.now() - 1000).toISOString());
    await locked(check(ws, user.userId, WEDNESDAY_WEEK_27));
    await lock(null);
    await locked(check(ws, user.userId, WEDNESDAY_WEEK_27));
  });

  it('administrators are never held', async () => {
    const ws = await h.workspace();
    await autoLocked(h, ws, true, 2026, 30);
    await as(h, ws).post('/api/timesheets/lock', { userId: ws.admin.userId, year: 2026, week: 27 });
    await expect(check(ws, ws.admin.userId, WEDNESDAY_WEEK_27, 'Administrator')).resolves.toBeUndefined();
  });

  it('the week is taken in the organization time zone: 23:30 Sunday in Europe/Berlin is that Sunday\'s week, 00:30 Monday the next', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await as(h, ws).put('/api/organization', { timeZone: 'Europe/Berlin' });
    await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 27 });
    await locked(check(ws, user.userId, SUNDAY_2330_BERLIN));
    await expect(check(ws, user.userId, MONDAY_0030_BERLIN)).resolves.toBeUndefined();
    // The other side: a lock of week 28 holds 00:30 Monday Berlin, though it is still Sunday in UTC.
    await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 28 });
    await locked(check(ws, user.userId, MONDAY_0030_BERLIN));
  });

  it('in UTC, the same instant 22:30 Sunday belongs to the Sunday\'s week', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 27 });
    await locked(check(ws, user.userId, MONDAY_0030_BERLIN));
    await expect(check(ws, user.userId, '2026-07-06T00:00:00.000Z')).resolves.toBeUndefined();
  });

  it('lockingTimesheets.timeZone, when set, wins over the organization time zone', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await as(h, ws).put('/api/organization', { timeZone: 'UTC' });
    await h.app.db.updateTable('organizations').set({ locking_time_zone: 'Europe/Berlin' }).where('id', '=', ws.organizationId).execute();
    await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 28 });
    await locked(check(ws, user.userId, MONDAY_0030_BERLIN));
  });
});
