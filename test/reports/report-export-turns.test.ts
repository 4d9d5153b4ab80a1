import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { beforeAll, expect, it } from 'vitest';
import { describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { toDbBool } from '../support/src.js';

/*
 * A long export gives other requests their turn (docs/rules.md §6 Detailed report): its entries are
 * read piece by piece, and other requests are served between two pieces even when the client takes
 * the file as fast as it comes (on SQLite no read waits for I/O, so nothing else would).
 */

/** Entries enough for ten reads of the store. */
const MANY = 20_000;

async function history(h: Harness, ws: TestWorkspace): Promise<void> {
  const start = Date.parse('2026-03-01T00:00:00Z');
  for (let done = 0; done < MANY; done += 1000) {
    const rows = Array.from({ length: 1000 }, (_, k) => {
      const at = new Date(start + (done + k) * 60_000);
      return {
        id: randomUUID(),
        organization_id: ws.organizationId,
        user_id: ws.admin.userId,
        project_id: null,
        name: `Entry ${done + k}`,
        billable: toDbBool(false),
        started_at: at.toISOString(),
        ended_at: new Date(at.getTime() + 30_000).toISOString(),
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      };
    });
    await h.app.db.insertInto('activities').values(rows).execute();
  }
}

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
    await history(h, ws);
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
