import { afterAll, describe, expect, it } from 'vitest';
import { eachStore, request, runCli, sharedDatabaseUrl, startServer, type RunningServer } from '../support/processes.js';

/** docs/rules.md §1, the operator contract: `npm start`, BOOTSTRAP, health, signals and the CLI, as real processes. */
for (const store of eachStore) {
  describe(`npm start [${store.name}]`, () => {
    const servers: RunningServer[] = [];
    afterAll(() => {
      for (const server of servers) server.child.kill('SIGKILL');
    });

    it('on an empty database creates workspace demo and prints its URL, API key and a curl line that works', async () => {
      const server = await startServer({ DATABASE_URL: sharedDatabaseUrl(store), BASE_DOMAIN: 'localhost' });
      servers.push(server);
      const out = server.output();
      const key = /API key: (ttk_[A-Za-z0-9_-]{43})/.exec(out)?.[1];
      expect(key).toBeDefined();
      expect(out).toContain(`curl -H "Authorization: Bearer ${key}" http://demo.localhost:0/api/auth`);
      expect(out).toContain('  Web app: http://demo.localhost:0/   (sign in as admin@example.com with an emailed link: the link is in `npx timetrack outbox list --domain demo`)');
      const res = await request(server.port, 'GET', '/api/auth', { host: `demo.localhost:${server.port}`, authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      const users = await request(server.port, 'GET', '/api/users', { host: `demo.localhost:${server.port}`, authorization: `Bearer ${key}` });
      const [adminId] = Object.keys(users.body);
      expect(res.body).toEqual({ domain: 'demo', email: 'admin@example.com', token: key, userId: adminId, role: 'Administrator' });
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    });

    it('does not bootstrap with BOOTSTRAP=false, nor under NODE_ENV=production, nor when a workspace exists', async () => {
      for (const env of [{ BOOTSTRAP: 'false' }, { NODE_ENV: 'production' }] as Record<string, string>[]) {
        const server = await startServer({ DATABASE_URL: sharedDatabaseUrl(store), ...env });
        servers.push(server);
        expect(server.output()).not.toContain('API key');
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      }
      const url = sharedDatabaseUrl(store);
      await runCli(['workspace', 'create', '--domain', 'existing', '--name', 'E', '--admin-email', 'e@example.com'], { DATABASE_URL: url });
      const server = await startServer({ DATABASE_URL: url });
      servers.push(server);
      expect(server.output()).not.toContain('API key');
      server.child.kill('SIGTERM');
      await server.exited;
    });

    it('answers /healthz and /readyz on any host without a token', async () => {
      const server = await startServer({ DATABASE_URL: sharedDatabaseUrl(store), BOOTSTRAP: 'false' });
      servers.push(server);
      expect((await request(server.port, 'GET', '/healthz', { host: 'anything' })).body).toEqual({ status: 'ok' });
      expect((await request(server.port, 'GET', '/readyz', { host: 'anything' })).body).toEqual({ status: 'ready' });
      server.child.kill('SIGINT');
      expect(await server.exited).toBe(0);
    });

    it('a lone request\'s access line reaches standard output although it fills no batch of log lines', async () => {
      const server = await startServer({ DATABASE_URL: sharedDatabaseUrl(store), BOOTSTRAP: 'false' });
      servers.push(server);
      expect((await request(server.port, 'GET', '/healthz', { host: 'anything', 'x-request-id': 'lone-request-1' })).status).toBe(200);
      const line = await new Promise<string | undefined>((resolve) => {
        const poll = setInterval(() => {
          const found = server.output().split('\n').find((l) => l.includes('"reqId":"lone-request-1"'));
          if (found !== undefined) {
            clearInterval(poll);
            resolve(found);
          }
        }, 20);
        setTimeout(() => {
          clearInterval(poll);
          resolve(undefined);
        }, 3_000);
      });
      expect(line && JSON.parse(line)).toMatchObject({ msg: 'request', method: 'GET', route: '/healthz', status: 200 });
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    });

    it('a request with two Host headers selects no workspace', async () => {
      const server = await startServer({ DATABASE_URL: sharedDatabaseUrl(store) });
      servers.push(server);
      const key = /API key: (ttk_[A-Za-z0-9_-]{43})/.exec(server.output())![1];
      const res = await new Promise<string>((resolve, reject) => {
        import('node:net').then(({ connect }) => {
          const socket = connect(server.port, '127.0.0.1', () => {
            socket.write(
              `GET /api/auth HTTP/1.1\r\nHost: demo.localhost\r\nHost: demo.localhost\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
            );
          });
          let text = '';
          socket.on('data', (chunk) => (text += chunk));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
        });
      });
      expect(res).toMatch(/^HTTP\/1\.1 (400|404)/);
      expect(res).not.toContain('"domain":"demo"');
      server.child.kill('SIGTERM');
      await server.exited;
    });
  });

  // Each test starts several CLI processes one after another: seconds each on a loaded machine.
  describe(`timetrack CLI [${store.name}]`, { timeout: 120_000 }, () => {
    const url = sharedDatabaseUrl(store);
    const cli = (...args: string[]) => runCli(args, { DATABASE_URL: url });

    it('timetrack migrate applies pending migrations and exits 0', async () => {
      const result = await cli('migrate');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).applied).toContain('0001_foundation');
      expect(JSON.parse((await cli('migrate')).stdout)).toEqual({ applied: [] });
    });

    it('workspace create prints {domain, organizationId, userId, apiKey} and the key works', async () => {
      const result = await cli('workspace', 'create', '--domain', 'acme', '--name', 'Acme', '--admin-email', 'Boss@Acme.example.com', '--admin-name', 'Boss', '--currency', 'EUR', '--time-zone', 'Europe/Berlin');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const created = JSON.parse(result.stdout);
      expect(Object.keys(created)).toEqual(['domain', 'organizationId', 'userId', 'apiKey']);
      expect(created.domain).toBe('acme');
      expect(created.apiKey).toMatch(/^ttk_[A-Za-z0-9_-]{43}$/);
      const server = await startServer({ DATABASE_URL: url, BOOTSTRAP: 'false' });
      try {
        const auth = await request(server.port, 'GET', '/api/auth', { host: 'acme.localhost', authorization: `Bearer ${created.apiKey}` });
        expect(auth.body).toEqual({ domain: 'acme', email: 'boss@acme.example.com', token: created.apiKey, userId: created.userId, role: 'Administrator' });
        const organization = await request(server.port, 'GET', '/api/organization', { host: 'acme.localhost', authorization: `Bearer ${created.apiKey}` });
        expect(organization.body).toMatchObject({ id: created.organizationId, name: 'Acme', currency: 'EUR', timeZone: 'Europe/Berlin' });
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    });

    it('workspace create exits 1 with a clear message for a taken, invalid or reserved domain or a bad email', async () => {
      await cli('workspace', 'create', '--domain', 'taken', '--name', 'T', '--admin-email', 't@example.com');
      const cases: Array<[string[], RegExp]> = [
        [['--domain', 'taken', '--name', 'T2', '--admin-email', 'x@example.com'], /taken/],
        [['--domain', 'No_Good', '--name', 'N', '--admin-email', 'x@example.com'], /domain/],
        [['--domain', 'www', '--name', 'N', '--admin-email', 'x@example.com'], /reserved/],
        [['--domain', 'fine-domain', '--name', 'N', '--admin-email', 'not-an-email'], /email/i],
      ];
      for (const [args, message] of cases) {
        const result = await cli('workspace', 'create', ...args);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(message);
      }
    });

    it('apikey create prints {apiKey, userId} for a user of the workspace, exit 1 otherwise', async () => {
      const created = JSON.parse((await cli('workspace', 'create', '--domain', 'keys', '--name', 'K', '--admin-email', 'k@example.com')).stdout);
      const result = await cli('apikey', 'create', '--domain', 'keys', '--email', 'K@example.com', '--name', 'deploy');
      expect(result.code).toBe(0);
      const key = JSON.parse(result.stdout);
      expect(Object.keys(key)).toEqual(['apiKey', 'userId']);
      expect(key.userId).toBe(created.userId);
      expect(key.apiKey).not.toBe(created.apiKey);
      const stranger = await cli('apikey', 'create', '--domain', 'keys', '--email', 'stranger@example.com');
      expect(stranger.code).toBe(1);
      expect(stranger.stderr).toMatch(/stranger@example.com/);
      const nowhere = await cli('apikey', 'create', '--domain', 'nowhere', '--email', 'k@example.com');
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toMatch(/nowhere/);
    });
  });
}
