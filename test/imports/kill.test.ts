import { afterAll, describe, expect, it } from 'vitest';
import { eachStore, request, runCli, sharedDatabaseUrl, startServer, type RunningServer } from '../support/processes.js';
import { csv } from './support.js';

/*
 * docs/rules.md §6 Imports: a server killed (SIGKILL) during an import leaves the workspace exactly as
 * before it; after the restart the import is marked failed, never half applied.
 */

const HEADER = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags';

/** A Toggl file of `rows` entries: 20 people, 30 projects, 10 minutes each. */
function bigFile(rows: number): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const start = new Date(Date.UTC(2025, 0, 1) + i * 15 * 60_000);
    const end = new Date(start.getTime() + 10 * 60_000);
    const [date, time] = start.toISOString().slice(0, 19).split('T');
    const [endDate, endTime] = end.toISOString().slice(0, 19).split('T');
    lines.push(`P${i % 20},p${i % 20}@example.com,Client ${i % 5},Project ${i % 30},,Entry ${i},No,${date},${time},${endDate},${endTime},00:10:00,tag${i % 7}`);
  }
  return csv(...lines);
}

const ROWS = 30_000;

for (const store of eachStore) {
  describe(`an import killed mid-way [${store.name}]`, () => {
    const servers: RunningServer[] = [];
    afterAll(() => {
      for (const server of servers) server.child.kill('SIGKILL');
    });

    it('SIGKILL during an import, then a restart: the import is failed and the workspace holds none of it (or all of it, had it finished)', async () => {
      const databaseUrl = sharedDatabaseUrl(store);
      const domain = `kill${process.pid}${Date.now().toString(36)}`;
      const created = await runCli(['workspace', 'create', '--domain', domain, '--name', 'Kill', '--admin-email', `admin@${domain}.example.com`], { DATABASE_URL: databaseUrl });
      expect(created.code, created.stderr).toBe(0);
      const { apiKey } = JSON.parse(created.stdout);
      const headers = { host: `${domain}.localhost`, authorization: `Bearer ${apiKey}` };
      const env = { DATABASE_URL: databaseUrl, BOOTSTRAP: 'false' };
      const file = bigFile(ROWS);
      // Kills at several moments of the run: while it reads, plans, stages or applies.
      let interrupted = 0;
      for (const delayMs of [0, 300, 800]) {
        const server = await startServer(env, { startTimeoutMs: 90_000 });
        servers.push(server);
        const call = (method: string, path: string, extra: Record<string, string> = {}, body?: string) => request(server.port, method, `/api${path}`, { ...headers, ...extra }, body);
        const before = Object.keys((await call('GET', '/activities')).body).length;
        const started = await call('POST', '/imports?source=toggl&timeZone=UTC', { 'content-type': 'text/csv' }, file);
        expect(started.status).toBe(202);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        server.child.kill('SIGKILL');
        await server.exited;

        const restarted = await startServer(env, { startTimeoutMs: 90_000 });
        servers.push(restarted);
        const again = (method: string, path: string) => request(restarted.port, method, `/api${path}`, headers);
        // PostgreSQL: another instance might still run it, so the import is failed once its heartbeat has been silent a while.
        const deadline = Date.now() + 60_000;
        let found = (await again('GET', `/imports/${started.body.id}`)).body;
        while ((found.status === 'queued' || found.status === 'running') && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          found = (await again('GET', `/imports/${started.body.id}`)).body;
        }
        const after = Object.keys((await again('GET', '/activities')).body).length;
        if (found.status === 'succeeded') {
          expect(after).toBe(before + found.created.activities);
        } else {
          expect(found).toMatchObject({ status: 'failed', errors: [{ row: 0, column: null, code: 'interrupted' }] });
          expect(after).toBe(before);
          interrupted++;
        }
        restarted.child.kill('SIGTERM');
        await restarted.exited;
      }
      // The kills landed while imports ran.
      expect(interrupted).toBeGreaterThan(0);
    }, 300_000);
  });
}
