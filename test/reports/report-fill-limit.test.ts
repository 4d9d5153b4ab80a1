import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeEachStore, type TestWorkspace } from '../support/harness.js';
import { entry, runReport } from './run-world.js';

/**
 * docs/rules.md §6 Reports, "Empty rows": more than 100,000 rows to fill is 422, and a run over the
 * limit is refused from the workspace's directory alone, before its entries are read.
 */

const DAY = 86_400_000;
const START = '2024-01-01T00:00:00Z';
const plusDays = (days: number) => new Date(Date.parse(START) + days * DAY).toISOString();
const byUserAndDay = (days: number) => ({ start: START, end: plusDays(days), hideEmptyRows: false, dimensions: ['user', 'day'], metrics: ['time'] });

describeEachStore('Report runs: the empty rows to fill', (h) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await h.workspace();
    // With the administrator, 100 people.
    for (let i = 0; i < 99; i++) await h.user(ws);
    await entry(h, ws, { owner: ws.admin, startedAt: plusDays(3), seconds: 3600 });
  }, 120_000);

  it('100 people × 999 days (100,000 rows with the user rows) are answered, one day more is 422 with what to do', async () => {
    const within = await runReport(h, ws, byUserAndDay(999));
    expect(within.status).toBe(200);
    expect(within.body.rows).toHaveLength(100);
    expect(within.body.rows.every((row: { rows: unknown[] }) => row.rows.length === 999)).toBe(true);
    expect(within.body.totals).toEqual({ entries: 1, time: 3600 });
    const over = await runReport(h, ws, byUserAndDay(1000));
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('validation');
    expect(over.body.detail).toBe(
      'Filling empty rows (hideEmptyRows false) would answer more than 100000 rows: hide empty rows, narrow the period or the selection, or group by fewer dimensions.',
    );
  });

  it('a run over the limit is refused without reading its entries: on PostgreSQL it answers while the entries are locked', async () => {
    if (h.store !== 'postgres') return;
    await h.app.db.connection().execute(async (connection) => {
      await sql`begin`.execute(connection);
      try {
        await sql`lock table activities in access exclusive mode`.execute(connection);
        // A run within the limit reads the entries, so it waits for the lock…
        const waiting = runReport(h, ws, { ...byUserAndDay(7), hideEmptyRows: true });
        // (PostgreSQL answers a count as text.)
        await expect
          .poll(async () => Number((await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%activities%'`.execute(h.app.db)).rows[0].n))
          .toBe(1);
        // …while one over the limit is refused at once.
        const over = await runReport(h, ws, byUserAndDay(1000));
        expect(over.status).toBe(422);
        await sql`rollback`.execute(connection);
        expect((await waiting).status).toBe(200);
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    });
  });
});
