import { describe, expect, it } from 'vitest';
import { eachStore, runScript, sharedDatabaseUrl } from '../support/processes.js';

/** The script's own limit; a start may first rebuild dist/ on a loaded machine, so both are generous. */
const SCRIPT_LIMIT_MS = 240_000;

function rollingRestart(databaseUrl: string) {
  return runScript('scripts/rolling-restart.mjs', ['--database', databaseUrl, '--time-limit-ms', String(SCRIPT_LIMIT_MS)], {});
}

/**
 * docs/operations.md, "Rolling restart": three instances on one store behind a real haproxy, restarted one after
 * another (SIGTERM, drain, exit, start) under a steady load of writes and reads: no answer is an error and every
 * acknowledged write is read back. On SQLite the three share one file on one host.
 */
for (const store of eachStore) {
  describe(`rolling restart behind haproxy [${store.name}]`, () => {
    it('restarting each of three instances in turn under load loses no request and no acknowledged write', { timeout: SCRIPT_LIMIT_MS + 60_000 }, async () => {
      const run = await rollingRestart(sharedDatabaseUrl(store));
      expect(run.code, run.stderr).toBe(0);
      const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
      expect(summary.restarts).toEqual([
        { instance: 'i1', exit: 0 },
        { instance: 'i2', exit: 0 },
        { instance: 'i3', exit: 0 },
      ]);
      expect(summary.errors).toBe(0);
      expect(summary.firstErrors).toEqual([]);
      expect(summary.writesAcknowledged).toBeGreaterThan(0);
      expect(summary.writesFound).toBe(summary.writesAcknowledged);
      expect(summary.lost).toBe(0);
      expect(summary.requests).toBeGreaterThanOrEqual(2 * summary.writesAcknowledged);
    });
  });
}
