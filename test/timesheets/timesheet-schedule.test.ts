import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { changesSince, feedEnd, readFeed } from '../changes/feed-support.js';
import { as, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { ok } from '../support/ok.js';
import { eachStore, request, runCli, sharedDatabaseUrl, startServer, type RunningServer } from '../support/processes.js';
import { listMessages, runTimesheetSchedule, scheduledWorkspaces } from '../support/src.js';

/*
 * The server's timesheet schedule (docs/rules.md §6 Timesheet schedule): the automatic lock once a
 * week has elapsed, and the reminder from the Friday of the week the next lock closes, at the end of
 * core hours in the lock time zone, until that week ends. The schedule's pass is given its moment here;
 * the last suite runs it in real servers.
 */

/** ISO week 50 of 2026 runs from Monday 7 December to Sunday 13 December. */
const THURSDAY = '2026-12-10T12:00:00Z';
const FRIDAY_BEFORE_END = '2026-12-11T16:59:00Z';
const FRIDAY_END = '2026-12-11T17:00:00Z';
const SUNDAY_NIGHT = '2026-12-13T23:59:00Z';
const NEXT_MONDAY = '2026-12-14T00:30:00Z';

async function enableAutoLock(h: Harness, ws: TestWorkspace): Promise<void> {
  await ok(as(h, ws).put('/api/organization', { coreHours: { start: '09:00', end: '17:00' }, lockingTimesheets: { enabled: true } }));
}

/** One pass of the schedule for the workspace at `at`, as each instance's timer runs it. */
async function pass(h: Harness, ws: TestWorkspace, at: string) {
  const workspace = (await scheduledWorkspaces(h.app.db)).find((w) => w.organizationId === ws.organizationId);
  if (!workspace) throw new Error('the workspace is not scheduled');
  return runTimesheetSchedule(h.app.db, h.config, workspace, new Date(at));
}

const reminders = async (h: Harness, ws: TestWorkspace) =>
  (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.kind === 'timesheetReminder');

describeEachStore('Timesheet schedule: the automatic lock and the reminder run by the server (docs/rules.md §6 Timesheet schedule)', (h) => {
  it('a workspace without automatic locking is not scheduled', async () => {
    const ws = await h.workspace();
    expect((await scheduledWorkspaces(h.app.db)).some((w) => w.organizationId === ws.organizationId)).toBe(false);
  });

  it('the automatic lock records the last elapsed week once, with a timesheet.auto_locked event holding the organization and no actor', async () => {
    const ws = await h.workspace();
    await enableAutoLock(h, ws);
    const start = await feedEnd(h, ws);
    expect(await pass(h, ws, THURSDAY)).toEqual({ locked: { year: 2026, week: 49 }, reminded: null });
    expect(await pass(h, ws, FRIDAY_BEFORE_END)).toEqual({ locked: null, reminded: null });
    const organization = await ok(as(h, ws).get('/api/organization'));
    expect(organization.lockingTimesheets).toMatchObject({ enabled: true, year: 2026, week: 49 });
    const { events } = await readFeed(h, ws, ws.admin, start);
    expect(events.map((e) => [e.type, e.actorId, e.data])).toEqual([['timesheet.auto_locked', null, organization]]);
  });

  it('the reminder is written from Friday at the end of core hours until the week ends, once, for the week the next lock closes', async () => {
    const ws = await h.workspace();
    const keen = await h.user(ws);
    const quiet = await h.user(ws);
    await ok(as(h, ws, quiet).put(`/api/users/${quiet.userId}/preferences`, { notifications: { timesheetReminder: { email: false } } }));
    await enableAutoLock(h, ws);
    await pass(h, ws, THURSDAY);
    const start = await feedEnd(h, ws);
    expect(await pass(h, ws, FRIDAY_BEFORE_END)).toEqual({ locked: null, reminded: null });
    expect(await reminders(h, ws)).toEqual([]);
    expect(await pass(h, ws, FRIDAY_END)).toEqual({ locked: null, reminded: { year: 2026, week: 50 } });
    expect(await pass(h, ws, SUNDAY_NIGHT)).toEqual({ locked: null, reminded: null });
    const written = await reminders(h, ws);
    expect(written.map((m) => m.to).sort()).toEqual([ws.admin.email, keen.email].sort());
    expect(written.map((m) => m.subject)).toEqual(Array(2).fill('Please complete your timesheet for week 50 of 2026'));
    const { events } = await readFeed(h, ws, ws.admin, start);
    expect(events.map((e) => [e.type, e.actorId])).toEqual([['timesheet.reminder_sent', null]]);
    expect(events[0].data).toEqual({ year: 2026, week: 50, messages: 2, sentAt: events[0].data.sentAt });
    // The next Monday the lock takes week 50; week 51's reminder waits for its Friday.
    expect(await pass(h, ws, NEXT_MONDAY)).toEqual({ locked: { year: 2026, week: 50 }, reminded: null });
    expect(await reminders(h, ws)).toHaveLength(2);
  });

  it('a reminder missed for its whole window is not written after the week is locked', async () => {
    const ws = await h.workspace();
    await enableAutoLock(h, ws);
    await pass(h, ws, THURSDAY);
    expect(await pass(h, ws, NEXT_MONDAY)).toEqual({ locked: { year: 2026, week: 50 }, reminded: null });
    expect(await reminders(h, ws)).toEqual([]);
  });

  it('the reminder\'s Friday is read in the lock time zone', async () => {
    const ws = await h.workspace();
    await ok(as(h, ws).put('/api/organization', { timeZone: 'Pacific/Auckland' }));
    await enableAutoLock(h, ws);
    // 17:00 on Friday 11 December in Auckland (UTC+13) is 04:00 UTC that day.
    await pass(h, ws, '2026-12-10T12:00:00Z');
    expect(await pass(h, ws, '2026-12-11T03:59:00Z')).toEqual({ locked: null, reminded: null });
    expect(await pass(h, ws, '2026-12-11T04:00:00Z')).toEqual({ locked: null, reminded: { year: 2026, week: 50 } });
  });

  it('passes of several instances at the same moment lock once and remind once', async () => {
    const ws = await h.workspace();
    await h.user(ws);
    await enableAutoLock(h, ws);
    const start = await feedEnd(h, ws);
    const results = await Promise.all([1, 2, 3].map(() => pass(h, ws, FRIDAY_END)));
    expect(results.filter((r) => r.locked !== null)).toEqual([{ locked: { year: 2026, week: 49 }, reminded: expect.anything() }]);
    expect(results.filter((r) => r.reminded !== null)).toHaveLength(1);
    expect(await reminders(h, ws)).toHaveLength(2);
    expect((await changesSince(h, ws, start)).map(([type]) => type).sort()).toEqual(['timesheet.auto_locked', 'timesheet.reminder_sent']);
  });

  it('a week reminded of by hand (POST /timesheets/reminder) is not reminded of again by the schedule', async () => {
    const ws = await h.workspace();
    await enableAutoLock(h, ws);
    // The schedule's moments in the real current week, since the route reads the real clock.
    const monday = DateTime.utc().startOf('week');
    await pass(h, ws, monday.plus({ minutes: 30 }).toISO()!);
    const start = await feedEnd(h, ws);
    expect((await as(h, ws).post('/api/timesheets/reminder', { reason: 'Early' })).status).toBe(200);
    expect(await reminders(h, ws)).toHaveLength(1);
    const { events } = await readFeed(h, ws, ws.admin, start);
    expect(events.map((e) => [e.type, e.actorId, e.data.week, e.data.messages])).toEqual([['timesheet.reminder_sent', ws.admin.userId, monday.weekNumber, 1]]);
    expect(await pass(h, ws, monday.plus({ days: 4, hours: 17, minutes: 30 }).toISO()!)).toEqual({ locked: null, reminded: null });
    expect(await reminders(h, ws)).toHaveLength(1);
  });

  it('PUT /timesheets/auto-lock records a timesheet.auto_locked event with its caller when it locks, and none when it changes nothing', async () => {
    const ws = await h.workspace();
    await enableAutoLock(h, ws);
    const start = await feedEnd(h, ws);
    const first = await ok(as(h, ws).put('/api/timesheets/auto-lock', { reason: 'weekly' }));
    await ok(as(h, ws).put('/api/timesheets/auto-lock', { reason: 'again' }));
    const { events } = await readFeed(h, ws, ws.admin, start);
    expect(events.map((e) => [e.type, e.actorId, e.data])).toEqual([['timesheet.auto_locked', ws.admin.userId, first]]);
  });
});

for (const store of eachStore) {
  describe(`Timesheet schedule in the running server [${store.name}]`, () => {
    const servers: RunningServer[] = [];
    afterAll(() => {
      for (const server of servers) server.child.kill('SIGKILL');
    });

    it('the server runs the automatic lock on its own, once across its instances', async () => {
      const databaseUrl = sharedDatabaseUrl(store);
      const domain = `sched${process.pid}${Date.now().toString(36)}`;
      const created = await runCli(['workspace', 'create', '--domain', domain, '--name', 'Schedule', '--admin-email', `admin@${domain}.example.com`], {
        DATABASE_URL: databaseUrl,
      });
      expect(created.code, created.stderr).toBe(0);
      const { apiKey } = JSON.parse(created.stdout);
      const headers = { host: `${domain}.localhost`, authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
      const env = { DATABASE_URL: databaseUrl, BOOTSTRAP: 'false', SCHEDULE_INTERVAL_MS: '50' };
      // SQLite is served by one process; PostgreSQL by three instances, each running the schedule.
      const instances = store.name === 'postgres' ? 3 : 1;
      for (let i = 0; i < instances; i++) servers.push(await startServer(env, { startTimeoutMs: 90_000 }));
      const call = (method: string, path: string, body?: unknown) =>
        request(servers[0].port, method, `/api${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
      const start = (await call('GET', '/changes?limit=1000')).body.cursor as string;
      expect((await call('PUT', '/organization', { lockingTimesheets: { enabled: true } })).status).toBe(200);
      const last = DateTime.utc().minus({ weeks: 1 });
      const deadline = Date.now() + 30_000;
      let locking: { year: number | null; week: number | null } = { year: null, week: null };
      while (locking.week === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        locking = (await call('GET', '/organization')).body.lockingTimesheets;
      }
      expect(locking).toMatchObject({ year: last.weekYear, week: last.weekNumber });
      // Many more passes of every instance: still one event.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const feed = (await call('GET', `/changes?limit=1000&after=${start}`)).body;
      expect(feed.events.filter((e: { type: string }) => e.type === 'timesheet.auto_locked')).toHaveLength(1);
    }, 180_000);
  });
}
