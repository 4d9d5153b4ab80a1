import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { as, describeEachStore, type Harness, type Response, type TestUser, type TestWorkspace } from '../support/harness.js';
import { listening, untilOthersInFlight } from '../support/listening.js';
import { snapshotReaderOf } from '../support/src.js';
import { entry, JULY } from './run-world.js';

/**
 * docs/rules.md §6 Reports, "Runs at once": a summary's SQL runs beside the requests of others (on a
 * SQLite file in the reader thread's snapshot, on PostgreSQL in its own process), and at most 2 runs
 * of one token and 4 of one workspace run at once in an instance.
 *
 * The store's reads are held for a while: on PostgreSQL by a lock on the activities; on SQLite by a
 * statement the reader thread works through for seconds, which the snapshots after it wait behind.
 */

const BY_USER = { ...JULY, dimensions: ['user'], metrics: ['time'] };

/** Holds the reads a summary makes of the activities until the returned function is called (and resolves once they go on). */
async function holdingReads(h: Harness): Promise<() => Promise<void>> {
  if (h.store === 'postgres') {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = h.app.db.connection().execute(async (connection) => {
      await sql`begin`.execute(connection);
      await sql`lock table activities in access exclusive mode`.execute(connection);
      locked();
      await released;
      await sql`rollback`.execute(connection);
    });
    await isLocked;
    return async () => {
      release();
      await holding;
    };
  }
  const reader = snapshotReaderOf(h.app.db);
  if (reader === undefined) throw new Error('the SQLite file has no reader thread');
  const snapshot = await reader.snapshot();
  const busy = snapshot.rows(sql`with recursive n(x) as (select 1 union all select x + 1 from n where x < 20000000) select count(*) as c from n`.compile(h.app.db));
  // The thread's statement cannot be stopped: the reads go on once it is done.
  return async () => {
    await busy;
    await snapshot.end();
  };
}

/** A request's answer and whether it has come yet. */
function watched(answer: Promise<Response>): { answer: Promise<Response>; settled: () => boolean } {
  let done = false;
  void answer.finally(() => (done = true));
  return { answer, settled: () => done };
}

describeEachStore(
  'Report runs at once (docs/rules.md §6 Reports, "Runs at once")',
  (h) => {
    listening(h);
    let ws: TestWorkspace;
    let other: TestWorkspace;
    let second: TestUser;
    let third: TestUser;
    beforeAll(async () => {
      ws = await h.workspace();
      other = await h.workspace();
      second = await h.user(ws, { role: 'Administrator' });
      third = await h.user(ws, { role: 'Administrator' });
      await entry(h, ws, { owner: ws.admin, startedAt: '2026-07-02T09:00:00Z', seconds: 3600 });
    });
    const run = (workspace: TestWorkspace, by?: TestUser) => as(h, workspace, by ?? workspace.admin).post('/api/reports/run', BY_USER, { query: { timeZone: 'UTC' } });

    it('a summary whose reads wait does not hold another workspace: its requests are answered meanwhile', async () => {
      const release = await holdingReads(h);
      const waiting = watched(run(ws));
      await untilOthersInFlight(1);
      expect((await as(h, other).get('/api/organization')).status).toBe(200);
      expect((await as(h, other).get('/api/projects')).status).toBe(200);
      expect(waiting.settled()).toBe(false);
      await release();
      const answered = await waiting.answer;
      expect(answered.status).toBe(200);
      expect(answered.body.totals).toEqual({ entries: 1, time: 3600 });
    }, 60_000);

    it('at most 2 runs of one token and 4 of one workspace run at once: beyond, 429 with Retry-After 1; the runs held are answered', async () => {
      const release = await holdingReads(h);
      const held = [run(ws), run(ws)];
      await untilOthersInFlight(2);
      // Past their counting, the two are in their handlers once their bodies are read.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await run(ws);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(refused.body.code).toBe('rate-limited');
      expect(refused.body.detail).toBe('At most 2 report runs of one token run at once. Retry in 1 s, or narrow the report.');
      // The token's other requests are served.
      expect((await as(h, ws).get('/api/organization')).status).toBe(200);

      held.push(run(ws, second), run(ws, second));
      await untilOthersInFlight(4);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const full = await run(ws, third);
      expect(full.status).toBe(429);
      expect(full.body.detail).toBe('At most 4 report runs of one workspace run at once. Retry in 1 s, or narrow the report.');

      await release();
      for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
      // Their places are given back with their answers.
      expect((await run(ws, third)).status).toBe(200);
      expect((await run(ws)).status).toBe(200);
    }, 60_000);
  },
  {},
  { onDisk: true },
);
