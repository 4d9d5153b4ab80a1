import http from 'node:http';
import net from 'node:net';
import { Worker } from 'node:worker_threads';
import { beforeAll, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore } from '../support/harness.js';

/*
 * A long export gives other requests their turn (docs/rules.md §6 Detailed report): its entries are
 * read piece by piece, and other requests are served between two pieces even when the client takes
 * the file as fast as it comes (on SQLite no read waits for I/O, so nothing else would).
 */

/** Entries enough for ten reads of the store. */
const MANY = 20_000;
/** Entries of about 400 bytes each: a file far longer than what the sockets between server and client buffer. */
const LONG = 50_000;

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

  it('an export is one snapshot: what commits while its client has not read it is not in the file', async () => {
    const ws = await h.workspace();
    const pad = 'a name long enough that the file outgrows what the sockets buffer '.repeat(5);
    await make.history(h, ws, ws.admin, { count: LONG, from: '2026-03-01T00:00:00Z', everyMs: 60_000, lastingMs: 30_000, name: (i) => `Entry ${i} ${pad}` });
    const definition = { period: 'custom', start: '2026-03-01T00:00:00Z', end: '2026-05-01T00:00:00Z', dimensions: ['project'], metrics: ['time'] };
    const listed = Object.values((await as(h, ws).get('/api/activities?from=2026-04-04T00:00:00Z')).body as Record<string, { id: string; name: string }>);
    const [deleted, renamed] = listed.slice(-2);
    expect(renamed.name).toBe(`Entry ${LONG - 1} ${pad}`);

    // The file's head has arrived (its snapshot is taken); the client then reads nothing until the writes are done.
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.request(
        { port, host: '127.0.0.1', method: 'POST', path: '/api/reports/entries?format=csv&timeZone=UTC', agent: false, headers: { host: ws.host, authorization: `Bearer ${ws.admin.token}`, 'content-type': 'application/json' } },
        (res) => {
          res.pause();
          resolve(res);
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify(definition));
    });
    expect(answer.statusCode).toBe(200);
    expect((await as(h, ws).put(`/api/activities/${renamed.id}`, { name: 'Renamed' })).status).toBe(200);
    expect((await as(h, ws).delete(`/api/activities/${deleted.id}`)).status).toBe(200);
    expect((await as(h, ws).post('/api/activities', { name: 'Added', startedAt: '2026-04-30T09:00:00Z', endedAt: '2026-04-30T10:00:00Z' })).status).toBe(200);

    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    const rows = Buffer.concat(chunks).toString('utf8').trimEnd().split('\r\n');
    // The header, every entry, the total.
    expect(rows).toHaveLength(1 + LONG + 1);
    expect(rows[LONG - 1]).toContain(`Entry ${LONG - 2} `);
    expect(rows[LONG]).toContain(`Entry ${LONG - 1} `);
    expect(rows.some((row) => row.includes('Renamed') || row.includes('Added'))).toBe(false);
    const after = Object.values((await as(h, ws).get('/api/activities?from=2026-04-04T00:00:00Z')).body as Record<string, { name: string }>).map((a) => a.name);
    expect(after.slice(-2)).toEqual(['Renamed', 'Added']);
  }, 120_000);
}, {}, { onDisk: true });
