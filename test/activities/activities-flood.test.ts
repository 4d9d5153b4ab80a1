import http from 'node:http';
import net from 'node:net';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { sql } from 'kysely';
import { activityListStatement, type ActivityFilter, type ActivityReader, LIST_PIECE, listingCounters, LONG_READ_CONNECTIONS } from '../support/src.js';
import { heldRequest, listening, untilOthersInFlight } from '../support/listening.js';
import { tracking } from '../support/tracking.js';

/** Activities enough for an answer far longer than what the sockets between server and client buffer (about 20 MB). */
const MANY = 50_000;

const NAME = 'A long enough name to make each entry weigh about four hundred bytes in the answer. '.repeat(3).trim();

/** `count` activities of the user an hour apart, every other one on the project. */
const history = (h: Harness, ws: TestWorkspace, user: TestUser, count = MANY, projectId: string | null = null) =>
  make.history(h, ws, user, { count, from: '2020-01-01T00:00:00Z', everyMs: 3_600_000, lastingMs: 1_800_000, name: () => NAME, projectId: (i) => (i % 2 === 0 ? projectId : null) });

/**
 * A client that sends GET /activities and then does not read the answer: `head` resolves once the
 * answer's head arrived (the listing runs), leaving the rest unread on the connection.
 */
function unread(port: number, ws: TestWorkspace, user: TestUser, query = ''): { socket: net.Socket; head: Promise<void> } {
  const socket = net.connect(port, '127.0.0.1', () =>
    socket.write(`GET /api/activities${query} HTTP/1.1\r\nHost: ${ws.host}\r\nAuthorization: Bearer ${user.token}\r\n\r\n`),
  );
  socket.on('error', () => undefined);
  const head = new Promise<void>((resolve, reject) =>
    socket.once('readable', () => {
      const start = socket.read(12) as Buffer | null;
      if (start?.toString() !== 'HTTP/1.1 200') return reject(new Error(`not a 200: ${String(start)}`));
      resolve();
    }),
  );
  return { socket, head };
}

/** An unread listing whose head has arrived. */
async function stalled(port: number, ws: TestWorkspace, user: TestUser, query = ''): Promise<net.Socket> {
  const { socket, head } = unread(port, ws, user, query);
  await head;
  return socket;
}

describeEachStore('A flood of listings (docs/rules.md §6, "Listing activities")', (h) => {
  const { server, open } = listening(h);

  /** GET /activities until it is no longer 429 (a closed connection gives its places back as the server sees the close). */
  async function listedOnceFreed(ws: TestWorkspace, user: TestUser): Promise<number> {
    let status = 0;
    for (let attempt = 0; attempt < 200; attempt++) {
      status = (await as(h, ws, user).get('/api/activities?limit=1')).status;
      if (status !== 429) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return status;
  }

  it('at most LISTING_CONCURRENCY_PER_TOKEN (2) listings of one token and PER_WORKSPACE (4) of one workspace run at once: beyond, 429 with Retry-After', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const heavy = await h.user(ws);
    const second = await h.user(ws);
    const third = await h.user(ws);
    await history(h, ws, heavy);
    await history(h, ws, second, MANY / 2);

    open.push(await stalled(server.port, ws, heavy), await stalled(server.port, ws, heavy));
    const refused = await as(h, ws, heavy).get('/api/activities?limit=1');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(refused.body.code).toBe('rate-limited');
    expect(refused.body.detail).toContain('At most 2 such listings of one token');
    // Other routes of the token, and listings of other tokens, are served.
    expect((await as(h, ws, heavy).get('/api/organization')).status).toBe(200);
    expect((await as(h, ws, third).get('/api/activities')).status).toBe(200);

    // Two more of another token of the workspace: the workspace's four places are taken.
    open.push(await stalled(server.port, ws, second), await stalled(server.port, ws, second));
    const full = await as(h, ws, third).get('/api/activities');
    expect(full.status).toBe(429);
    expect(full.headers['retry-after']).toBe('1');
    expect(full.body.detail).toContain('At most 4 such listings of one workspace');
    // Another workspace is not held by this one's listings.
    expect((await as(h, other).get('/api/activities')).status).toBe(200);

    // A closed connection gives its places back.
    for (const socket of open.splice(0)) socket.destroy();
    expect(await listedOnceFreed(ws, third)).toBe(200);
    expect(await listedOnceFreed(ws, heavy)).toBe(200);
  });

  it('a client that does not read a long answer does not make the server read all its pieces', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await history(h, ws, user);
    const pieces = Math.ceil(MANY / LIST_PIECE);
    const before = listingCounters.piecesRead;
    open.push(await stalled(server.port, ws, user));
    // Until the server stops reading: the sockets' buffers are full and the answer waits for the client.
    let read = -1;
    for (let still = 0; still < 10; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = listingCounters.piecesRead - before;
      still = now === read ? still + 1 : 0;
      read = now;
    }
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(pieces);
    // Abandoned, the answer gives its transaction back: the whole listing is still served, and counted in full.
    for (const socket of open.splice(0)) socket.destroy();
    const whole = await as(h, ws, user).get('/api/activities');
    expect(whole.status).toBe(200);
    expect(Object.keys(whole.body)).toHaveLength(MANY);
  }, 120_000);

  it('a long answer is one snapshot: what commits while its client has not read it is not in it, and the writes do not wait for it', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await history(h, ws, user);
    const before = Object.keys((await as(h, ws, user).get('/api/activities')).body);
    expect(before).toHaveLength(MANY);

    // The answer's head has arrived (its snapshot is taken); the client then reads nothing until the writes are done.
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get({ port: server.port, host: '127.0.0.1', path: '/api/activities', agent: false, headers: { host: ws.host, authorization: `Bearer ${user.token}` } }, (res) => {
          res.pause();
          resolve(res);
        })
        .on('error', reject);
    });
    expect(answer.statusCode).toBe(200);
    const added = await as(h, ws, user).post('/api/activities', { name: 'Later', startedAt: '2030-01-01T09:00:00Z', endedAt: '2030-01-01T10:00:00Z' });
    expect(added.status).toBe(200);
    expect((await as(h, ws, user).delete(`/api/activities/${before[MANY - 1]}`)).status).toBe(200);
    expect((await as(h, ws, user).put(`/api/activities/${before[0]}`, { name: 'Renamed' })).status).toBe(200);

    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    const read = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, { name: string }>;
    expect(Object.keys(read)).toEqual(before);
    expect(read[before[0]].name).toBe(NAME);
    const after = (await as(h, ws, user).get('/api/activities')).body as Record<string, { name: string }>;
    expect(Object.keys(after)).toEqual([...before.slice(0, MANY - 1), added.body.id]);
    expect(after[before[0]].name).toBe('Renamed');
  }, 120_000);

  /** Sends a request and leaves at once, before the server has answered; resolves once the socket is closed. */
  async function leaveAtOnce(ws: TestWorkspace, token: string, path: string): Promise<void> {
    await new Promise<void>((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1', () => {
        socket.end(`GET ${path} HTTP/1.1\r\nHost: ${ws.host}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
        socket.destroy();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve());
    });
  }

  it('a client that leaves while its token is still being checked holds nothing: no place among the listings, no count of requests in flight', async () => {
    const ws = await h.workspace();
    // Fresh API keys: the first use of each is recorded, a write its request waits for before its route's hooks run.
    for (let i = 0; i < 6; i++) await leaveAtOnce(ws, (await h.user(ws)).token, '/api/activities?limit=1');
    for (let i = 0; i < 6; i++) await leaveAtOnce(ws, (await h.user(ws)).token, '/api/projects');
    await untilOthersInFlight(0);
    const user = await h.user(ws);
    expect(await listedOnceFreed(ws, user)).toBe(200);
  });

  it('a long listing gives way to the other requests in flight: each piece after the first waits, and with none in flight none waits', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const count = 5_000;
    await history(h, ws, user, count);
    // Every piece read after the first (the first is read again in the snapshot when the answer is long).
    const later = Math.ceil(count / LIST_PIECE);

    // A request in flight: its headers sent, its body never.
    const held = heldRequest(server.port, ws, user.token);
    open.push(held);
    await untilOthersInFlight(1);
    const before = listingCounters.piecesAfterGivingWay;
    const busy = await as(h, ws, user).get('/api/activities');
    expect(busy.status).toBe(200);
    expect(Object.keys(busy.body)).toHaveLength(count);
    expect(listingCounters.piecesAfterGivingWay - before).toBe(later);

    held.destroy();
    await untilOthersInFlight(0);
    const alone = listingCounters.piecesAfterGivingWay;
    const quiet = await as(h, ws, user).get('/api/activities');
    expect(quiet.status).toBe(200);
    expect(quiet.body).toEqual(busy.body);
    expect(listingCounters.piecesAfterGivingWay - alone).toBe(0);
  }, 120_000);
  // The listing bounds themselves; PostgreSQL's smaller share of the long-read connections: test/reports/export-pool-fairness.test.ts.
}, { longReadsPerWorkspace: 4 }, { onDisk: true });

describeEachStore('Listing plans at scale (docs/rules.md §6, "Listing activities")', (h) => {
  /** The plan the store chooses on its own (statistics gathered, nothing forced), as text. */
  async function planOf(filter: ActivityFilter, reader: ActivityReader, options: { administers: boolean; after?: { startedAt: string; id: string } }) {
    const compiled = activityListStatement(h.app.store.dialect, filter, reader, options);
    const explain = h.store === 'postgres' ? 'explain ' : 'explain query plan ';
    const result = await h.app.db.executeQuery<Record<string, string>>({ ...compiled, sql: explain + compiled.sql });
    return result.rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
  }

  it('every piece of a long listing is an index range for an administrator, a project admin and a member, never a scan of the table', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const lead = await h.user(ws);
    const member = await h.user(ws);
    const project = await t.project();
    await t.member(project.id, lead, { role: 'Administrator' });
    await t.member(project.id, member);
    await history(h, ws, lead, MANY / 2, project.id);
    await history(h, ws, member, MANY / 2, project.id);
    await sql`analyze`.execute(h.app.db);

    const after = { startedAt: '2021-01-01T00:00:00.000Z', id: '' };
    const whole = { organizationId: ws.organizationId };
    const week = { ...whole, from: '2021-01-01T00:00:00.000Z', to: '2021-01-08T00:00:00.000Z' };
    const cases: [string, ActivityReader, ActivityFilter, boolean][] = [
      ['administrator', { all: true }, whole, true],
      ['project admin', { all: false, userId: lead.userId }, whole, true],
      ['member', { all: false, userId: member.userId }, whole, false],
      ['project admin, a week', { all: false, userId: lead.userId }, week, true],
    ];
    for (const [caller, reader, filter, administers] of cases) {
      for (const options of [{ administers }, { administers, after }]) {
        const plan = await planOf(filter, reader, options);
        const label = `${caller}${options.after ? ', a later piece' : ''}:\n${plan}`;
        expect(plan, label).not.toMatch(/Seq Scan on activities|Parallel|SCAN activities\b/);
        expect(plan, label).toMatch(/activities_(user_listing|organization_started|project_started)/);
      }
    }
  }, 120_000);
});

describeEachStore(
  'Long answers beside every other request (docs/durability.md §7)',
  (h) => {
    const { server, open } = listening(h);

    it('long answers whose clients do not read, more of them than the database connections of an instance, hold no other request', async () => {
      const ws = await h.workspace();
      const other = await h.workspace();
      await history(h, ws, ws.admin);
      // Two listings per token: six administrators, each listing the whole workspace twice, more
      // listings than an instance has database connections. Those that can run send their heads
      // (on PostgreSQL as many as the long reads' connections; the others wait for one).
      const admins = [ws.admin, ...(await Promise.all(Array.from({ length: 5 }, () => h.user(ws, { role: 'Administrator' }))))];
      const listings = admins.flatMap((admin) => [unread(server.port, ws, admin), unread(server.port, ws, admin)]);
      open.push(...listings.map((listing) => listing.socket));
      await new Promise<void>((resolve) => {
        let arrived = 0;
        for (const listing of listings) void listing.head.then(() => ++arrived === Math.min(listings.length, LONG_READ_CONNECTIONS) && resolve());
      });

      // Another workspace is served while every one of them is still open and unread.
      const held = Symbol('held');
      const within = <T>(answer: Promise<T>) => Promise.race([answer, new Promise<typeof held>((resolve) => setTimeout(() => resolve(held), 10_000))]);
      const read = await within(as(h, other, other.admin).get('/api/organization'));
      expect(read).not.toBe(held);
      expect((read as { status: number }).status).toBe(200);
      const written = await within(
        as(h, other, other.admin).post('/api/activities', { name: 'Meanwhile', startedAt: '2026-01-05T09:00:00Z', endedAt: '2026-01-05T10:00:00Z' }),
      );
      expect(written).not.toBe(held);
      expect((written as { status: number }).status).toBe(200);
    }, 120_000);

    it('a listing whose client left while it waited for a connection gives the connection back once it has one', async () => {
      const ws = await h.workspace();
      await history(h, ws, ws.admin);
      const admins = [ws.admin, ...(await Promise.all(Array.from({ length: 8 }, () => h.user(ws, { role: 'Administrator' }))))];
      const headsOf = async (listings: Array<{ head: Promise<void> }>) => {
        const held = new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 20_000));
        return Promise.race([Promise.all(listings.map((listing) => listing.head)).then(() => 'all'), held]);
      };
      // Every connection for long reads taken (on PostgreSQL), by clients that read nothing.
      const first = admins.slice(0, 4).flatMap((admin) => [unread(server.port, ws, admin), unread(server.port, ws, admin)]).slice(0, LONG_READ_CONNECTIONS);
      open.push(...first.map((listing) => listing.socket));
      expect(await headsOf(first)).toBe('all');
      // One more waits for a connection; its client leaves; then the others' clients leave too.
      const gone = unread(server.port, ws, admins[4]);
      gone.head.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      gone.socket.destroy();
      for (const listing of first) listing.socket.destroy();

      // Every connection serves new long listings again: none stayed with the listing nobody reads.
      const again = admins.slice(5).flatMap((admin) => [unread(server.port, ws, admin), unread(server.port, ws, admin)]).slice(0, LONG_READ_CONNECTIONS);
      open.push(...again.map((listing) => listing.socket));
      expect(await headsOf(again)).toBe('all');
    }, 120_000);
  },
  // One workspace takes every long-read connection here, which its share (LONG_READS_PER_WORKSPACE) forbids outside tests.
  { listingConcurrency: { perToken: 2, perWorkspace: 20 }, longReadsPerWorkspace: 20 },
  { onDisk: true },
);
