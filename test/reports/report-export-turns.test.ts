import net from 'node:net';
import { Worker } from 'node:worker_threads';
import { beforeAll, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { describeEachStore } from '../support/harness.js';

/*
 * A long export gives other requests their turn (docs/rules.md §6 Detailed report): its entries are
 * read piece by piece, and other requests are served between two pieces even when the client takes
 * the file as fast as it comes (on SQLite no read waits for I/O, so nothing else would).
 */

/** Entries enough for ten reads of the store. */
const MANY = 20_000;

/**
 * A client on a thread of its own, reading the export as fast as it arrives: once its first bytes
 * arrive it asks for GET /organization, and it reports which answer ended first.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, host, token, body } = workerData;
const ended = [];
const done = (what, status) => {
  ended.push([what, status]);
  if (ended.length === 2) parentPort.postMessage(ended);
};
const headers = { host, authorization: 'Bearer ' + token };
const exported = http.request(
  { host: '127.0.0.1', port, method: 'POST', path: '/api/reports/entries?format=csv&timeZone=UTC', headers: { ...headers, 'content-type': 'application/json' } },
  (res) => {
    res.once('data', () => {
      http.get({ host: '127.0.0.1', port, path: '/api/organization', headers }, (other) => {
        other.resume();
        other.on('end', () => done('other', other.statusCode));
      });
    });
    res.on('end', () => done('export', res.statusCode));
    res.resume();
  },
);
exported.end(body);
`;

describeEachStore('A long export and other requests', (h) => {
  let port: number;
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as net.AddressInfo).port;
  });

  it('a request sent once a long export has begun is answered before the export ends, although its client reads as fast as it can', async () => {
    const ws = await h.workspace();
    await make.history(h, ws, ws.admin, { count: MANY, from: '2026-03-01T00:00:00Z', everyMs: 60_000, lastingMs: 30_000 });
    const body = JSON.stringify({ period: 'custom', start: '2026-03-01T00:00:00Z', end: '2026-04-01T00:00:00Z', dimensions: ['project'], metrics: ['time'] });
    const worker = new Worker(CLIENT, { eval: true, workerData: { port, host: ws.host, token: ws.admin.token, body } });
    try {
      const ended = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(ended).toEqual([
        ['other', 200],
        ['export', 200],
      ]);
    } finally {
      await worker.terminate();
    }
  }, 120_000);
});
