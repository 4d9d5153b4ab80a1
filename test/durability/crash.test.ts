import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runCrashTest, type Write } from '../../scripts/crash-test.mjs';
import { eachStore, sharedDatabaseUrl } from '../support/processes.js';

/*
 * The short CI run of `npm run crash-test` (scripts/crash-test.mjs), per store. The
 * full run is `npm run crash-test -- --cycles 20 --store both`.
 */

/** Runs statements on the store behind a DATABASE_URL while no server holds it. */
async function tamper(databaseUrl: string, statements: Array<[string, unknown[]]>): Promise<void> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new SqliteDatabase(databaseUrl.slice('sqlite:'.length));
    try {
      for (const [text, params] of statements) expect(db.prepare(text).run(...params).changes).toBe(1);
    } finally {
      db.close();
    }
    return;
  }
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema')!;
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${schema}` });
  await client.connect();
  try {
    for (const [text, params] of statements) {
      let n = 0;
      const numbered = text.replace(/\?/g, () => `$${++n}`);
      expect((await client.query(numbered, params)).rowCount).toBe(1);
    }
  } finally {
    await client.end();
  }
}

for (const store of eachStore) {
  describe(`crash durability [${store.name}]`, () => {
    it('every write the server acknowledged before a SIGKILL is present after the restart, and nothing is half-written', async () => {
      const result = await runCrashTest({ databaseUrl: sharedDatabaseUrl(store), cycles: 4, secondsPerCycle: 2, concurrency: 16 });

      expect(result.failures).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.lost).toBe(0);
      expect(result.present).toBe(result.acknowledged);
      expect(result.errorAnswers).toBe(0);
      expect(result.workflow.violations).toBe(0);
      // The run did something, and the kills landed while writes were in flight.
      expect(result.byKind.activity.acknowledged).toBeGreaterThan(0);
      expect(result.byKind.lock.acknowledged).toBeGreaterThan(0);
      expect(result.byKind.request.acknowledged).toBeGreaterThan(0);
      expect(result.inDoubt).toBeGreaterThan(0);
      if (store.name === 'sqlite') {
        const clean = { integrityCheck: 'ok', foreignKeyViolations: 0 };
        expect(result.integrity).toEqual({ afterLastKill: clean, afterShutdown: clean });
      }
    }, 120_000);

    it('the checks can fail: an acknowledged activity and a resolved assignment\'s membership removed behind the server\'s back are reported lost and inconsistent', async () => {
      const databaseUrl = sharedDatabaseUrl(store);
      let removedMembership = false;
      let removedActivity = '';
      const result = await runCrashTest({
        databaseUrl,
        cycles: 2,
        secondsPerCycle: 2,
        concurrency: 16,
        beforeVerify: async ({ acknowledged }) => {
          const activity = acknowledged.find((w: Write) => w.kind === 'activity')!;
          const resolved = acknowledged.find((w: Write) => w.kind === 'resolution' && w.status === 'RESOLVED');
          removedActivity = activity.key;
          const statements: Array<[string, unknown[]]> = [['delete from activities where id = ?', [activity.answer!.id]]];
          if (resolved) {
            statements.push(['delete from project_members where project_id = ? and user_id = ?', [resolved.projectId, resolved.userIds![0]]]);
            removedMembership = true;
          }
          await tamper(databaseUrl, statements);
        },
      });

      expect(result.ok).toBe(false);
      expect(result.byKind.activity.lost).toBe(1);
      expect(result.failures[0]).toMatch(/^\d+ acknowledged writes lost: /);
      expect(result.failures[0]).toContain(`activity ${JSON.stringify(removedActivity)}`);
      if (removedMembership) {
        expect(result.byKind.resolution.lost).toBe(1);
        expect(result.workflow.violations).toBe(1);
        expect(result.failures.some((f) => /workflow inconsistencies: RESOLVED request .* are not members/.test(f))).toBe(true);
      }
      expect(result.lost).toBe(removedMembership ? 2 : 1);
    }, 120_000);
  });
}
