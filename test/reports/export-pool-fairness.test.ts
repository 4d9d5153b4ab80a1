import net from 'node:net';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { listening } from '../support/listening.js';

/*
 * Detailed exports whose clients stop reading (docs/durability.md §7, docs/rules.md §6 "Listing
 * activities"): on PostgreSQL each holds a long-read connection, so one workspace may hold only a
 * few of them, and a stalled one gives its snapshot back after LONG_READ_STALL_MS.
 */

/** Entries enough for a file far longer than what the sockets between server and client buffer. */
const MANY = 50_000;
const NAME = 'A long enough description to make each row of the file weigh a few hundred bytes. '.repeat(3).trim();
const BODY = JSON.stringify({ period: 'custom', start: '2026-03-01T00:00:00Z', end: '2026-05-01T00:00:00Z', dimensions: ['project'], metrics: ['time'] });
const EXPORT = '/api/reports/entries?format=csv&timeZone=UTC';
const PAGE = '/api/reports/entries?limit=1&timeZone=UTC';

const longHistory = (h: Harness, ws: TestWorkspace) =>
  make.history(h, ws, ws.admin, { count: MANY, from: '2026-03-01T00:00:00Z', everyMs: 60_000, lastingMs: 30_000, name: () => NAME });

/** A client that asks for the export and reads nothing but the status line of its answer. */
function pausedExport(port: number, ws: TestWorkspace, user: TestUser): { socket: net.Socket; status: Promise<number> } {
  const socket = net.connect(port, '127.0.0.1', () =>
    socket.write(
      `POST ${EXPORT} HTTP/1.1\r\nHost: ${ws.host}\r\nAuthorization: Bearer ${user.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`,
    ),
  );
  socket.on('error', () => undefined);
  const status = new Promise<number>((resolve) => socket.once('readable', () => resolve(Number((socket.read(12) as Buffer | null)?.toString().slice(9)))));
  return { socket, status };
}

/** The exports a workspace may hold at once in one instance, on this store. */
const shareOf = (h: Harness) => (h.store === 'postgres' ? h.config.longReadsPerWorkspace : h.config.listingConcurrency.perWorkspace);

const connectionsOf = (h: Harness) =>
  new Promise<number>((resolve, reject) => h.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

/** Closes the clients and waits until the server has ended their answers (none is left reading when the app closes). */
async function allClosed(h: Harness, open: net.Socket[]): Promise<void> {
  for (const socket of open.splice(0)) socket.destroy();
  while ((await connectionsOf(h)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const within = <T>(ms: number, answer: Promise<T>) => Promise.race([answer, new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), ms))]);

describeEachStore('Paused exports and the long-read connections (docs/durability.md §7)', (h) => {
  const { server, open } = listening(h);
  const crowd: Array<{ ws: TestWorkspace; users: TestUser[] }> = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const ws = await h.workspace();
      await longHistory(h, ws);
      crowd.push({ ws, users: [ws.admin, ...(await Promise.all(Array.from({ length: 3 }, () => h.user(ws, { role: 'Administrator' }))))] });
    }
  }, 120_000);

  /** Paused exports of the workspace, two a token, until one is refused: the statuses in order. */
  async function fill(ws: TestWorkspace, users: TestUser[]): Promise<Array<{ status: number; socket: net.Socket }>> {
    // The places of an earlier test's exports are given back as the server sees their connections close.
    for (let attempt = 0; attempt < 200 && (await as(h, ws).post(PAGE, JSON.parse(BODY) as object)).status === 429; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const opened: Array<{ status: number; socket: net.Socket }> = [];
    for (const user of users.flatMap((user) => [user, user])) {
      const { socket, status } = pausedExport(server.port, ws, user);
      open.push(socket);
      opened.push({ status: await status, socket });
      if (opened[opened.length - 1].status !== 200) break;
    }
    return opened;
  }

  it('two workspaces holding every paused export they may leave a third workspace its export at once', async () => {
    for (const { ws, users } of crowd) {
      // As many as the workspace may hold: the next is refused.
      const statuses = (await fill(ws, users)).map((opened) => opened.status);
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    }
    // Time for the paused exports to take their snapshots and fill their sockets.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const third = await h.workspace();
    await make.history(h, third, third.admin, { count: 10, from: '2026-03-02T00:00:00Z', everyMs: 60_000, lastingMs: 30_000 });
    const small = await within(5_000, as(h, third).post(EXPORT, JSON.parse(BODY) as object));
    expect(small).not.toBe('held');
    expect((small as { status: number; text: string }).status).toBe(200);
    expect((small as { text: string }).text.split('\r\n').length).toBeGreaterThan(10);
    // The others are still open and unread.
    expect(open.every((socket) => !socket.destroyed && !socket.readableEnded)).toBe(true);
    await allClosed(h, open);
  }, 60_000);

  it("an export beyond its workspace's share is 429 rate-limited with Retry-After, not a wait", async () => {
    const { ws, users } = crowd[0];
    const opened = await fill(ws, users);
    expect(opened).toHaveLength(shareOf(h) + 1);
    const refused = await as(h, ws, users[users.length - 1]).post(EXPORT, JSON.parse(BODY) as object);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toMatchObject({ code: 'rate-limited' });
    expect((refused.body as { detail: string }).detail).toContain(`At most ${shareOf(h)} such listings of one workspace`);
    await allClosed(h, open);
  }, 60_000);
});

describeEachStore(
  'A stalled export gives its snapshot back (docs/durability.md §7)',
  (h) => {
    const { server, open } = listening(h);

    /** The PostgreSQL sessions of this database that are idle inside a transaction. */
    const idleInTransaction = async (): Promise<number[]> =>
      (
        await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and state = 'idle in transaction'`.execute(h.app.db)
      ).rows.map((row) => row.pid);

    const connections = () => connectionsOf(h);

    it('a client that stops reading has its answer ended after LONG_READ_STALL_MS, and no transaction stays open for it', async () => {
      const ws = await h.workspace();
      await longHistory(h, ws);
      const before = h.store === 'postgres' ? await idleInTransaction() : [];
      const connectionsBefore = await connections();
      const { socket, status } = pausedExport(server.port, ws, ws.admin);
      open.push(socket);
      expect(await status).toBe(200);
      // A paused client sees no close until it reads what it holds: the server's side tells.
      const closed = (async () => {
        while ((await connections()) > connectionsBefore) await new Promise((resolve) => setTimeout(resolve, 50));
        return 'closed' as const;
      })();

      let held: number[] = [];
      if (h.store === 'postgres') {
        for (let attempt = 0; held.length === 0 && attempt < 100; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          held = (await idleInTransaction()).filter((pid) => !before.includes(pid));
        }
        expect(held.length).toBeGreaterThan(0);
      }
      // The stall time is 1.5 s here; the default before was 30 s.
      expect(await within(6_000, closed)).toBe('closed');
      let left = held;
      for (let attempt = 0; left.length > 0 && attempt < 40; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const now = await idleInTransaction();
        left = held.filter((pid) => now.includes(pid));
      }
      expect(left).toEqual([]);
      // Its workspace's share is free again.
      expect((await as(h, ws).post(PAGE, JSON.parse(BODY) as object)).status).toBe(200);
      await allClosed(h, open);
    }, 60_000);
  },
  { longReadStallMs: 1_500 },
);
