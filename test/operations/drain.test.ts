import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachStore, request, ROOT, sharedDatabaseUrl, startServer } from '../support/processes.js';
import { loadConfig } from '../support/src.js';

/** One request through a keep-alive agent: the answer, and whether it went over a connection opened before. */
function agentRequest(
  agent: http.Agent,
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: any; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text), reusedSocket: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** docs/operations.md, "Readiness and shutdown": SIGTERM starts a drain, then the existing graceful shutdown. */
for (const store of eachStore) {
  describe(`shutdown drain [${store.name}]`, () => {
    it('during the drain /readyz is 503 problem+json while /healthz and the API (on new and kept-alive connections) still answer; a second SIGTERM ends it and the exit code is 0', { timeout: 120_000 }, async () => {
      // A drain far longer than the test: the second SIGTERM ends it, so nothing here waits on a clock.
      const server = await startServer({ DATABASE_URL: sharedDatabaseUrl(store), SHUTDOWN_DRAIN_MS: '600000' }, { startTimeoutMs: 90_000 });
      const key = /API key: (ttk_[A-Za-z0-9_-]{43})/.exec(server.output())![1];
      const headers = { host: 'demo.localhost', authorization: `Bearer ${key}` };
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const before = await agentRequest(agent, server.port, 'GET', '/api/auth', headers);
        expect(before.status).toBe(200);
        expect((await request(server.port, 'GET', '/readyz', { host: 'anything' })).status).toBe(200);

        server.child.kill('SIGTERM');
        // The signal arrives in its own time: /readyz is asked until it turns (at most 400 times, 25 ms apart).
        let ready = await request(server.port, 'GET', '/readyz', { host: 'anything' });
        for (let i = 0; i < 400 && ready.status === 200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          ready = await request(server.port, 'GET', '/readyz', { host: 'anything' });
        }
        expect(ready.status).toBe(503);
        expect(ready.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        expect(ready.headers['retry-after']).toBe('1');
        expect(ready.body).toMatchObject({
          type: 'urn:timetrack:problem:busy',
          status: 503,
          detail: 'This instance is shutting down: send requests to another instance.',
        });

        const live = await request(server.port, 'GET', '/healthz', { host: 'anything' });
        expect([live.status, live.body]).toEqual([200, { status: 'ok' }]);
        // A write on the connection kept alive from before the signal, and a read of it on a new connection.
        const write = await agentRequest(
          agent,
          server.port,
          'POST',
          '/api/activities',
          { ...headers, 'content-type': 'application/json' },
          JSON.stringify({ name: 'written during the drain', startedAt: '2026-05-04T09:00:00Z', endedAt: '2026-05-04T10:00:00Z' }),
        );
        expect(write.status).toBe(200);
        expect(write.reusedSocket).toBe(true);
        const read = await request(server.port, 'GET', `/api/activities/${write.body.id}`, headers);
        expect([read.status, read.body.name]).toEqual([200, 'written during the drain']);
        expect((await request(server.port, 'GET', '/readyz', { host: 'anything' })).status).toBe(503);

        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      } finally {
        agent.destroy();
        server.child.kill('SIGKILL');
      }
    });

    it('SHUTDOWN_DRAIN_MS is 5000 unless set; one that is not a whole number of milliseconds ≥ 0 stops the start with a clear message and exit code 1', { timeout: 120_000 }, async () => {
      for (const value of ['-1', '2.5', '']) {
        expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: value })).toThrow(`SHUTDOWN_DRAIN_MS must be a whole number of milliseconds ≥ 0, got "${value}"`);
      }
      expect(loadConfig({ SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs).toBe(0);
      expect(loadConfig({}).shutdownDrainMs).toBe(5000);
      // The whole way, once: the server refuses to start.
      for (const value of ['soon']) {
        const child = spawn(process.execPath, [path.join(ROOT, 'bin/start.js')], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: sharedDatabaseUrl(store), PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: value },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk));
        const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
        expect(code).toBe(1);
        expect(stderr).toContain(`timetrack: could not start: SHUTDOWN_DRAIN_MS must be a whole number of milliseconds ≥ 0, got "${value}"`);
      }
    });
  });
}
