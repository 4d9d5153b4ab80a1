import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

/** Idle read connections the thread keeps for the next snapshots; more are opened when more are open at once. */
const IDLE_CONNECTIONS = 4;
/**
 * The reader thread's nice value: when the cores are all busy, the event loop, which answers every
 * other request, gets the CPU before the long reads (which then take longer, not others' time).
 */
const READER_NICENESS = 10;
/** Prepared statements each connection keeps, by text. */
const STATEMENTS_PER_CONNECTION = 50;

// The thread's whole program (a worker cannot load this module's TypeScript source under the tests).
// Each snapshot is a read transaction on a read-only connection of its own: in WAL mode it sees the
// database as it was at its first read, whatever commits meanwhile, until it ends.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
// Below the event loop's priority where the system allows it (Linux: a thread's own nice value).
try {
  const thread = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(thread, workerData.niceness);
} catch {}
const idle = [];
const open = new Map();
const connect = () => {
  const db = new Database(workerData.file, { readonly: true });
  db.pragma('busy_timeout = 5000');
  return { db, statements: new Map() };
};
const prepared = (connection, text) => {
  let statement = connection.statements.get(text);
  if (statement === undefined) {
    if (connection.statements.size >= workerData.statementsPerConnection) connection.statements.clear();
    statement = connection.db.prepare(text);
    connection.statements.set(text, statement);
  }
  return statement;
};
const end = (id) => {
  const connection = open.get(id);
  if (connection === undefined) return;
  open.delete(id);
  if (connection.db.inTransaction) connection.db.exec('rollback');
  if (idle.length < workerData.idleConnections) idle.push(connection);
  else connection.db.close();
};
parentPort.on('message', (message) => {
  const { op, id, seq } = message;
  try {
    if (op === 'begin') {
      const connection = idle.pop() ?? connect();
      open.set(id, connection);
      connection.db.exec('begin');
      parentPort.postMessage({ seq });
    } else if (op === 'query') {
      const connection = open.get(id);
      if (connection === undefined) throw new Error('no such snapshot');
      const rows = prepared(connection, message.sql).all(message.parameters);
      const transfer = [];
      for (const row of rows) {
        for (const value of Object.values(row)) {
          if (value instanceof Uint8Array && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength) transfer.push(value.buffer);
        }
      }
      parentPort.postMessage({ seq, rows }, transfer);
    } else if (op === 'end') {
      end(id);
      parentPort.postMessage({ seq });
    } else if (op === 'stop') {
      for (const openId of [...open.keys()]) end(openId);
      for (const connection of idle.splice(0)) connection.db.close();
      parentPort.close();
    }
  } catch (error) {
    if (op === 'begin') end(id);
    parentPort.postMessage({ seq, error: { message: error.message, code: error.code } });
  }
});
`;

/** A read transaction on the reader thread: every statement run in it sees the same committed state. */
export interface Snapshot {
  /** Runs one read statement in the snapshot; blobs arrive as Buffers. */
  rows<Row>(query: CompiledQuery): Promise<Row[]>;
  /** Ends the snapshot (its connection goes back to the thread's pool). Safe to call more than once. */
  end(): Promise<void>;
}

interface Pending {
  resolve(rows: unknown[] | undefined): void;
  reject(error: Error): void;
}

type Reply = { seq: number; rows?: Array<Record<string, unknown>>; error?: { message: string; code?: string } };

/**
 * Long reads of a SQLite file on a thread of their own (docs/durability.md, "7. Long reads on a thread of their own"):
 * better-sqlite3 runs a statement to its end on the thread that calls it, so a long listing read on
 * the event loop holds every other request, of every workspace, until it ends. On this thread its
 * pieces are read beside the event loop, which only sends them on; and a snapshot stays open across
 * turns of the event loop without holding the store's one connection (whose transactions are the
 * writes' batches), so a long answer can be read as its client takes it.
 *
 * The thread keeps one read-only connection per open snapshot; messages are answered in order.
 */
export class SnapshotReader {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private nextSeq = 1;
  private failure: Error | undefined;
  private readonly exited: Promise<void>;

  constructor(file: string) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver, idleConnections: IDLE_CONNECTIONS, statementsPerConnection: STATEMENTS_PER_CONNECTION, niceness: READER_NICENESS },
    });
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('message', (reply: Reply) => this.settle(reply));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.once('exit', () => {
      this.fail(new Error("SQLite's reader thread has ended"));
      this.worker.unref();
    });
  }

  /** Whether the thread can take snapshots: false once it has failed or been stopped (callers then read on the event loop). */
  get available(): boolean {
    return this.failure === undefined;
  }

  /** Opens a snapshot on a connection of the thread. */
  async snapshot(): Promise<Snapshot> {
    const id = this.nextId++;
    await this.send({ op: 'begin', id });
    let ended: Promise<void> | undefined;
    return {
      rows: async <Row>(query: CompiledQuery) => {
        const rows = (await this.send({ op: 'query', id, sql: query.sql, parameters: query.parameters })) ?? [];
        return rows.map(withBuffers) as Row[];
      },
      end: () => (ended ??= this.failure ? Promise.resolve() : this.send({ op: 'end', id }).then(() => undefined)),
    };
  }

  /** Ends every snapshot and the thread. */
  async stop(): Promise<void> {
    if (this.failure === undefined) {
      this.failure = new Error("SQLite's reader thread was stopped");
      this.worker.ref(); // the process waits for the thread to close its connections
      this.worker.postMessage({ op: 'stop', id: 0 });
    }
    await this.exited;
  }

  /** Sends one message; its reply carries the message's own number, so messages of one snapshot may overlap. */
  private send(message: Record<string, unknown>): Promise<Array<Record<string, unknown>> | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = this.nextSeq++;
    return new Promise((resolve, reject) => {
      // Held by the process while it waits: an answer in progress must not be cut by the process ending.
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(seq, { resolve: resolve as Pending['resolve'], reject });
      this.worker.postMessage({ ...message, seq });
    });
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.seq);
    if (waiting === undefined) return;
    this.pending.delete(reply.seq);
    if (this.pending.size === 0 && this.failure === undefined) this.worker.unref();
    if (reply.error) waiting.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    else waiting.resolve(reply.rows);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

/** A row from the thread: byte arrays come back as Uint8Arrays, made Buffers again without a copy. */
function withBuffers(row: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(row)) {
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  return row;
}

/** The reader thread of a SQLite file, or none when no thread can be started (long reads then run on the event loop). */
export function startSnapshotReader(file: string): SnapshotReader | undefined {
  try {
    return new SnapshotReader(file);
  } catch (error) {
    process.emitWarning(`SQLite's reader thread did not start (${String(error)}): long listings are read on the event loop`);
    return undefined;
  }
}
