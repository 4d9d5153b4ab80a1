import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachStore, runCli, sharedDatabaseUrl } from '../support/processes.js';
import { csv, unzip } from './support.js';

/** docs/operations.md "Imports and export": `timetrack import` and `timetrack export`. */

const TOGGL = csv(
  'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags',
  'Ann Lee,ann@example.com,Acme,Website,,Mockups,Yes,2026-03-02,09:00:00,2026-03-02,10:30:00,01:30:00,',
);

for (const store of eachStore) {
  describe(`the import and export commands [${store.name}]`, () => {
    it('timetrack import prints the ended Import record; timetrack export writes the ZIP, which timetrack import --source timetrack takes into another workspace', async () => {
      const env = { DATABASE_URL: sharedDatabaseUrl(store) };
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-cli-import-'));
      const domain = `cli${process.pid}${Date.now().toString(36)}`;
      for (const name of [domain, `${domain}b`]) {
        const created = await runCli(['workspace', 'create', '--domain', name, '--name', 'CLI', '--admin-email', `admin@${name}.example.com`], env);
        expect(created.code, created.stderr).toBe(0);
      }
      const file = path.join(folder, 'toggl.csv');
      fs.writeFileSync(file, TOGGL);

      const dry = await runCli(['import', '--domain', domain, '--source', 'toggl', '--time-zone', 'UTC', '--dry-run', file], env);
      expect(dry.code, dry.stderr).toBe(0);
      expect(JSON.parse(dry.stdout)).toMatchObject({ status: 'succeeded', dryRun: true, created: { activities: 1, projects: 1 } });
      const imported = await runCli(['import', '--domain', domain, '--source', 'toggl', '--time-zone', 'UTC', file], env);
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({ status: 'succeeded', dryRun: false, rows: 1, created: { activities: 1, projects: 1, clients: 1, users: 1 } });
      // The operator's file stays where it was.
      expect(fs.readFileSync(file, 'utf8')).toBe(TOGGL);

      const archive = path.join(folder, 'export.zip');
      const exported = await runCli(['export', '--domain', domain, '--out', archive], env);
      expect(exported.code, exported.stderr).toBe(0);
      const files = await unzip(fs.readFileSync(archive));
      expect(JSON.parse(files['manifest.json']).counts).toMatchObject({ activities: 1, projects: 1, clients: 1 });

      const restored = await runCli(['import', '--domain', `${domain}b`, '--source', 'timetrack', archive], env);
      expect(restored.code, restored.stderr).toBe(0);
      expect(JSON.parse(restored.stdout)).toMatchObject({ status: 'succeeded', created: { activities: 1, projects: 1, clients: 1 } });

      const failed = await runCli(['import', '--domain', domain, '--source', 'kimai', file], env);
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'failed', errorCount: 3, errors: [{ code: 'missing-column', column: 'Date' }, { column: 'From' }, { column: 'To' }] });
      const unknown = await runCli(['import', '--domain', domain, '--source', 'excel', file], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('--source must be one of toggl, clockify, harvest, kimai, solidtime, timetrack');
    }, 120_000);
  });
}
