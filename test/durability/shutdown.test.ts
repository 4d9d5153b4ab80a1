import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { eachStore, request, sharedDatabaseUrl, startServer } from '../support/processes.js';

/** docs/rules.md §1: SIGTERM finishes what is in flight, refuses what is new, and exits 0. */
for (const store of eachStore) {
  describe(`graceful shutdown [${store.name}]`, () => {
    it('a request in flight when SIGTERM arrives completes; new connections are refused; the exit code is 0', async () => {
      const server = await startServer({ DATABASE_URL: sharedDatabaseUrl(store) });
      const key = /API key: (ttk_[A-Za-z0-9_-]{43})/.exec(server.output())![1];
      const headers = { host: 'demo.localhost', authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ name: 'sent slowly, across the shutdown' });

      // A body that arrives in two halves, with SIGTERM in between: the request is in flight.
      const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port: server.port, method: 'POST', path: '/api/api-keys', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          server.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(10)), 300);
        }, 200);
      });
      // Some quick requests racing the signal on their own connections: each either completes or is refused.
      const racing = Array.from({ length: 20 }, () =>
        request(server.port, 'GET', '/api/auth', { host: 'demo.localhost', authorization: `Bearer ${key}` }).then(
          (res) => res.status,
          (error: NodeJS.ErrnoException) => error.code,
        ),
      );

      const done = await inFlight;
      expect(done.status).toBe(200);
      expect(JSON.parse(done.text).name).toBe('sent slowly, across the shutdown');
      for (const outcome of await Promise.all(racing)) expect([200, 'ECONNREFUSED', 'ECONNRESET']).toContain(outcome);

      const refused = await new Promise<string>((resolve) => {
        const socket = net.connect(server.port, '127.0.0.1');
        socket.on('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');
      expect(await server.exited).toBe(0);
    });
  });
}
