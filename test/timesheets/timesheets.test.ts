import { DateTime } from 'luxon';
import { expect, it } from 'vitest';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { listMessages } from '../support/src.js';

/** docs/rules.md §6 Timesheet locks: locks, the automatic lock and the reminder. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The last fully elapsed ISO week at this moment in a zone, the way a careful reader computes it. */
function lastElapsed(zone: string) {
  const previous = DateTime.now().setZone(zone).minus({ weeks: 1 });
  return { year: previous.weekYear, week: previous.weekNumber };
}

async function setLocking(h: Harness, ws: TestWorkspace, values: { enabled?: boolean; year?: number | null; week?: number | null; zone?: string | null; orgZone?: string }) {
  await h.app.db
    .updateTable('organizations')
    .set({
      ...(values.enabled !== undefined ? { locking_enabled: values.enabled ? 1 : 0 } : {}),
      ...(values.year !== undefined ? { lock_year: values.year } : {}),
      ...(values.week !== undefined ? { lock_week: values.week } : {}),
      ...(values.zone !== undefined ? { locking_time_zone: values.zone } : {}),
      ...(values.orgZone !== undefined ? { time_zone: values.orgZone } : {}),
    })
    .where('id', '=', ws.organizationId)
    .execute();
}

describeEachStore('Timesheets: administrators only', (h) => {
  it('a User is 403 on every timesheet route, before the body is read', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const u = as(h, ws, user);
    for (const res of [
      await u.put('/api/timesheets/auto-lock', { reason: 'weekly' }),
      await u.post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 1 }),
      await u.post('/api/timesheets/lock', {}),
      await u.delete('/api/timesheets/lock/whatever'),
      await u.get('/api/timesheets/locks'),
      await u.post('/api/timesheets/reminder', { reason: 'weekly' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await as(h, ws).get('/api/timesheets/locks')).body).toEqual({});
    expect(await listMessages(h.app.db, { organizationId: ws.organizationId })).toEqual([]);
  });
});

describeEachStore('POST /timesheets/lock', (h) => {
  it('creates the lock of one user and ISO week', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws).post('/api/timesheets/lock', {
      userId: user.userId,
      year: 2026,
      week: 27,
      unlockedTo: '2026-07-10T12:00:00+02:00',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      userId: user.userId,
      year: 2026,
      week: 27,
      unlockedTo: '2026-07-10T10:00:00.000Z',
      createdAt: expect.stringMatching(ISO),
      updatedAt: res.body.createdAt,
    });
  });

  it('upserts: the same user and week keeps its id and createdAt, takes the new unlockedTo (absent: null) and a new updatedAt', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const first = (await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 27, unlockedTo: '2026-07-10T10:00:00Z' })).body;
    await pause(5);
    const second = await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 27 });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first, unlockedTo: null, updatedAt: expect.stringMatching(ISO) });
    expect(second.body.updatedAt > first.updatedAt).toBe(true);
    await pause(5);
    const third = (await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 27, unlockedTo: null })).body;
    expect(third).toMatchObject({ id: first.id, createdAt: first.createdAt, unlockedTo: null });
    // Another week, or another user, is another record.
    const otherWeek = (await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 28 })).body;
    const otherUser = (await as(h, ws).post('/api/timesheets/lock', { userId: ws.admin.userId, year: 2026, week: 27 })).body;
    expect(new Set([first.id, otherWeek.id, otherUser.id]).size).toBe(3);
    expect(Object.keys((await as(h, ws).get('/api/timesheets/locks')).body)).toEqual([first.id, otherWeek.id, otherUser.id]);
  });

  it('concurrent locks of one user and week make one record', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 30, unlockedTo: `2026-08-0${i}T00:00:00Z` }),
      ),
    );
    expect(results.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((res) => res.body.id)).size).toBe(1);
    expect(Object.keys((await as(h, ws).get('/api/timesheets/locks')).body)).toHaveLength(1);
  });

  it('the user must be a user of this workspace (archived ones too): 422 at /body/userId otherwise', async () => {
    const ws = await h.workspace();
    const archived = await h.user(ws, { archived: true });
    const elsewhere = await h.user(await h.workspace());
    expect((await as(h, ws).post('/api/timesheets/lock', { userId: archived.userId, year: 2026, week: 1 })).status).toBe(200);
    for (const userId of ['nobody', elsewhere.userId]) {
      const res = await as(h, ws).post('/api/timesheets/lock', { userId, year: 2026, week: 1 });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ pointer: '/body/userId', message: expect.any(String) }]);
    }
  });

  it('year/week must be a real ISO week and unlockedTo a date-time with an offset or null: 422 otherwise', async () => {
    const ws = await h.workspace();
    const userId = ws.admin.userId;
    expect((await as(h, ws).post('/api/timesheets/lock', { userId, year: 2026, week: 53 })).status).toBe(200);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ userId, year: 2027, week: 53 }, '/body/week'],
      [{ userId, year: 2026, week: 0 }, '/body/week'],
      [{ userId, year: 2026, week: 54 }, '/body/week'],
      [{ userId, year: 2026, week: 1.5 }, '/body/week'],
      [{ userId, year: 2026, week: '5' }, '/body/week'],
      [{ userId, year: 0, week: 5 }, '/body/year'],
      [{ userId, year: '2026', week: 5 }, '/body/year'],
      [{ userId, week: 5 }, '/body/year'],
      [{ year: 2026, week: 5 }, '/body/userId'],
      [{ userId, year: 2026, week: 5, unlockedTo: '2026-07-10T10:00:00' }, '/body/unlockedTo'],
      [{ userId, year: 2026, week: 5, unlockedTo: '2026-02-30T10:00:00Z' }, '/body/unlockedTo'],
      [{ userId, year: 2026, week: 5, unlockedTo: 5 }, '/body/unlockedTo'],
    ];
    for (const [body, pointer] of cases) {
      const res = await as(h, ws).post('/api/timesheets/lock', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].pointer, JSON.stringify(body)).toBe(pointer);
    }
    expect(Object.keys((await as(h, ws).get('/api/timesheets/locks')).body)).toHaveLength(1);
  });

  it('server-owned fields in the body are ignored', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/timesheets/lock', {
      userId: ws.admin.userId,
      year: 2026,
      week: 2,
      id: 'mine',
      createdAt: '2000-01-01T00:00:00Z',
      colour: 'red',
    });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe('mine');
    expect(res.body.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
    expect(res.body).not.toHaveProperty('colour');
  });
});

describeEachStore('DELETE /timesheets/lock/{lockId} and GET /timesheets/locks', (h) => {
  it('DELETE answers {} and the lock is gone; unknown or another workspace\'s lock is 404', async () => {
    const ws = await h.workspace();
    const lock = (await as(h, ws).post('/api/timesheets/lock', { userId: ws.admin.userId, year: 2026, week: 3 })).body;
    const stranger = await h.workspace();
    expect((await as(h, stranger).delete(`/api/timesheets/lock/${lock.id}`)).status).toBe(404);
    const res = await as(h, ws).delete(`/api/timesheets/lock/${lock.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await as(h, ws).get('/api/timesheets/locks')).body).toEqual({});
    const again = await as(h, ws).delete(`/api/timesheets/lock/${lock.id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not-found');
  });

  it('GET lists the workspace\'s locks id-keyed in creation order, filtered by userId and year', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const lock = (body: object) => as(h, ws).post('/api/timesheets/lock', body).then((res) => res.body);
    const a = await lock({ userId: user.userId, year: 2025, week: 52 });
    const b = await lock({ userId: ws.admin.userId, year: 2026, week: 1 });
    const c = await lock({ userId: user.userId, year: 2026, week: 2 });
    const stranger = await h.workspace();
    await as(h, stranger).post('/api/timesheets/lock', { userId: stranger.admin.userId, year: 2026, week: 2 });

    const all = await as(h, ws).get('/api/timesheets/locks');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ [a.id]: a, [b.id]: b, [c.id]: c });
    expect(Object.keys(all.body)).toEqual([a.id, b.id, c.id]);
    expect(Object.keys((await as(h, ws).get('/api/timesheets/locks', undefined, { query: { userId: user.userId } })).body)).toEqual([a.id, c.id]);
    expect(Object.keys((await as(h, ws).get('/api/timesheets/locks', undefined, { query: { year: '2026' } })).body)).toEqual([b.id, c.id]);
    expect(
      Object.keys((await as(h, ws).get('/api/timesheets/locks', undefined, { query: { year: '2026', userId: user.userId } })).body),
    ).toEqual([c.id]);
    for (const year of ['26', '2026x', '', ' 2026']) {
      const res = await as(h, ws).get('/api/timesheets/locks', undefined, { query: { year } });
      expect(res.status, year).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/query/year');
    }
  });

  it('deleting a user deletes their locks', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await as(h, ws).post('/api/timesheets/lock', { userId: user.userId, year: 2026, week: 3 });
    expect((await as(h, ws).delete(`/api/users/${user.userId}`)).status).toBe(200);
    expect((await as(h, ws).get('/api/timesheets/locks')).body).toEqual({});
  });
});

describeEachStore('PUT /timesheets/auto-lock', (h) => {
  const autoLock = (ws: TestWorkspace) => as(h, ws).put('/api/timesheets/auto-lock', { reason: 'weekly run' });

  it('disabled: changes nothing and answers the organization', async () => {
    const ws = await h.workspace();
    const organization = (await as(h, ws).get('/api/organization')).body;
    const res = await autoLock(ws);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(organization);
    expect(res.body.lockingTimesheets).toMatchObject({ enabled: false, year: null, week: null });
  });

  it('enabled with no week recorded: records the last fully elapsed week in the organization time zone', async () => {
    const ws = await h.workspace();
    await as(h, ws).put('/api/organization', { timeZone: 'Pacific/Kiritimati', lockingTimesheets: { enabled: true } });
    const expected = lastElapsed('Pacific/Kiritimati');
    const res = await autoLock(ws);
    expect(res.status).toBe(200);
    expect(res.body.lockingTimesheets).toEqual({ enabled: true, timeZone: null, unlockDuration: 24, ...expected });
    expect((await as(h, ws).get('/api/organization')).body).toEqual(res.body);
  });

  it('catches up several weeks at once when the recorded week is behind', async () => {
    const ws = await h.workspace();
    await as(h, ws).put('/api/organization', { lockingTimesheets: { enabled: true } });
    await setLocking(h, ws, { year: 2020, week: 5 });
    const res = await autoLock(ws);
    expect(res.body.lockingTimesheets).toMatchObject(lastElapsed('UTC'));
    // Run again: already up to date, nothing changes.
    expect((await autoLock(ws)).body).toEqual(res.body);
  });

  it('a recorded week at or after the last elapsed one is left as it is', async () => {
    const ws = await h.workspace();
    await as(h, ws).put('/api/organization', { lockingTimesheets: { enabled: true } });
    await setLocking(h, ws, { year: 9999, week: 1 });
    expect((await autoLock(ws)).body.lockingTimesheets).toMatchObject({ year: 9999, week: 1 });
  });

  it('lockingTimesheets.timeZone, when set, decides the week instead of the organization time zone', async () => {
    const ws = await h.workspace();
    await as(h, ws).put('/api/organization', { timeZone: 'Pacific/Pago_Pago', lockingTimesheets: { enabled: true } });
    await setLocking(h, ws, { zone: 'Pacific/Kiritimati' });
    const res = await autoLock(ws);
    expect(res.body.lockingTimesheets).toMatchObject({ timeZone: 'Pacific/Kiritimati', ...lastElapsed('Pacific/Kiritimati') });
  });

  it('concurrent runs all answer the same recorded week', async () => {
    const ws = await h.workspace();
    await as(h, ws).put('/api/organization', { lockingTimesheets: { enabled: true } });
    const results = await Promise.all([1, 2, 3].map(() => autoLock(ws)));
    expect(results.map((res) => res.status)).toEqual([200, 200, 200]);
    for (const res of results) expect(res.body.lockingTimesheets).toMatchObject(lastElapsed('UTC'));
  });

  it('reason is required', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/timesheets/auto-lock', {});
    expect(res.status).toBe(422);
    expect(res.body.errors[0].pointer).toBe('/body/reason');
  });
});

describeEachStore('POST /timesheets/reminder', (h) => {
  it('answers JSON null and writes a timesheetReminder to each active user who has not turned its email off', async () => {
    const ws = await h.workspace();
    const keen = await h.user(ws);
    const quiet = await h.user(ws);
    const popupOnly = await h.user(ws);
    await h.user(ws, { archived: true });
    const off = await as(h, ws, quiet).put(`/api/users/${quiet.userId}/preferences`, {
      notifications: { timesheetReminder: { email: false } },
    });
    expect(off.status).toBe(200);
    await as(h, ws, popupOnly).put(`/api/users/${popupOnly.userId}/preferences`, {
      notifications: { timesheetReminder: { popup: false }, activityCreated: { email: false } },
    });
    const res = await as(h, ws).post('/api/timesheets/reminder', { reason: 'Friday' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const week = lastElapsed('UTC');
    const messages = await listMessages(h.app.db, { organizationId: ws.organizationId });
    expect(messages.map((m) => m.to).sort()).toEqual([ws.admin.email, keen.email, popupOnly.email].sort());
    for (const message of messages) {
      expect(message.kind).toBe('timesheetReminder');
      expect(message.subject).toBe(`Please complete your timesheet for week ${week.week} of ${week.year}`);
      expect(message.body).toContain(`http://${ws.domain}.${h.config.baseDomain}:3000`);
      // The workspace by its name, not its domain.
      expect(message.body).toContain(`will soon be locked in workspace "${(await ok(as(h, ws).get('/api/organization'))).name}".`);
    }
  });

  it('reminds of the week the next automatic lock will close: the one after the recorded week once that is up to date', async () => {
    const ws = await h.workspace();
    await as(h, ws).put('/api/organization', { lockingTimesheets: { enabled: true } });
    await as(h, ws).put('/api/timesheets/auto-lock', { reason: 'catch up' });
    await as(h, ws).post('/api/timesheets/reminder', { reason: 'Friday' });
    const current = DateTime.now().setZone('UTC');
    const [message] = await listMessages(h.app.db, { organizationId: ws.organizationId });
    expect(message.subject).toBe(`Please complete your timesheet for week ${current.weekNumber} of ${current.weekYear}`);
  });

  it('reason is required; a User is 403', async () => {
    const ws = await h.workspace();
    expect((await as(h, ws).post('/api/timesheets/reminder', {})).status).toBe(422);
    expect((await as(h, ws).post('/api/timesheets/reminder', { reason: 5 })).status).toBe(422);
    expect(await listMessages(h.app.db, { organizationId: ws.organizationId })).toEqual([]);
  });
});
