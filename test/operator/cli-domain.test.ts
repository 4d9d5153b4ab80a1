import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BASE_DOMAIN } from '../support/harness.js';
import { eachStore, runCli, sharedDatabaseUrl } from '../support/processes.js';
import { buildApp, createWorkspace, loadConfig } from '../support/src.js';

/** `timetrack domain release --domain D` (docs/rules.md §1, §2): a deleted workspace's domain, released on purpose. */
for (const store of eachStore) {
  describe(`timetrack domain release [${store.name}]`, () => {
    it('releases a deleted workspace\'s reserved domain so another workspace may take it; anything else is exit 1', { timeout: 120_000 }, async () => {
      const url = sharedDatabaseUrl(store);
      const domain = `gone${process.pid}x${Date.now().toString(36)}`;
      const config = { ...loadConfig({}), databaseUrl: url, baseDomain: BASE_DOMAIN, publicUrl: `http://${BASE_DOMAIN}:3000` };
      const app = await buildApp({ config, logStream: new Writable({ write: (_c, _e, done) => done() }) });
      try {
        const call = (host: string, token: string, method: 'POST' | 'DELETE', url: string, body?: unknown) =>
          app.inject({
            method,
            url,
            headers: { host: `${host}.${BASE_DOMAIN}`, authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
            ...(body ? { payload: JSON.stringify(body) } : {}),
          });
        const gone = await createWorkspace(app.db, { domain, name: 'Gone', adminEmail: 'gone@example.com' });
        const other = await createWorkspace(app.db, { domain: `${domain}b`, name: 'Other', adminEmail: 'other@example.com' });
        expect((await call(domain, gone.apiKey, 'DELETE', '/api/organization')).statusCode).toBe(200);
        expect((await call(other.domain, other.apiKey, 'POST', '/api/organization/rename', { domain })).statusCode).toBe(409);

        const held = await runCli(['domain', 'release', '--domain', other.domain], { DATABASE_URL: url });
        expect([held.code, held.stdout]).toEqual([1, '']);
        expect(held.stderr).toContain(`The domain "${other.domain}" belongs to a workspace`);

        const released = await runCli(['domain', 'release', '--domain', domain.toUpperCase()], { DATABASE_URL: url });
        expect([released.code, released.stderr]).toEqual([0, '']);
        expect(JSON.parse(released.stdout)).toEqual({ domain, released: true });
        expect((await call(other.domain, other.apiKey, 'POST', '/api/organization/rename', { domain })).statusCode).toBe(200);

        const again = await runCli(['domain', 'release', '--domain', domain], { DATABASE_URL: url });
        expect(again.code).toBe(1);
        expect(again.stderr).toContain(`belongs to a workspace`);
        const unknown = await runCli(['domain', 'release', '--domain', `${domain}zz`], { DATABASE_URL: url });
        expect([unknown.code, unknown.stdout]).toEqual([1, '']);
        expect(unknown.stderr).toContain(`No such reserved domain "${domain}zz"`);
      } finally {
        await app.close();
      }
    });
  });
}
