import type SqliteDatabase from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * How often the checkpointer copies the WAL's new frames into the database file. A checkpoint copies
 * each page once, however many frames hold it: under steady writes the same few index pages are
 * rewritten by every commit, so a longer interval copies far less (measured in docs/performance.md, "What each optimisation bought").
 */
const CHECKPOINT_INTERVAL_MS = 250;

/**
 * SQLite's own checkpoint on the store's connection, the backstop that lets the WAL start over
 * (Checkpointer): at this many frames (about 40 MB with 4 KiB pages), several intervals' worth of
 * writes under load, so that it runs about once a second at most and finds all but the last interval
 * copied. At SQLite's default of 1,000 it ran inline on the event loop about ten times a second
 * under load.
 */
export const BACKSTOP_CHECKPOINT_FRAMES = 10_000;

// The worker's whole program (a worker cannot load this module's TypeScript source under the tests).
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/**
 * Checkpoints a WAL-mode SQLite file from a worker thread with a connection of its own, every 250 ms,
 * so that the event loop seldom copies WAL frames into the database file or waits for that file's
 * fsync. Left alone, SQLite makes the commit that writes every thousandth frame run the whole
 * checkpoint inline, on the event loop. A PASSIVE checkpoint takes no lock a writer needs: commits go
 * on while it copies.
 *
 * The store's connection keeps SQLite's own checkpoint, at BACKSTOP_CHECKPOINT_FRAMES, all the same:
 * SQLite starts the WAL over only at a write that finds every frame copied, which never happens under
 * steady writes when only another connection checkpoints (the WAL then grows without end). That
 * checkpoint finds all but the last interval's frames already copied and flushed. Crash safety is
 * SQLite's: a checkpoint cut short is redone from the WAL.
 */
class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private stopped: Promise<void> | undefined;

  constructor(file: string, onError: (error: unknown) => void) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('error', onError);
  }

  /** Runs a last checkpoint, then ends the worker. */
  stop(): Promise<void> {
    if (this.stopped === undefined) {
      this.worker.ref(); // kept unreferenced while it runs, it must hold the process open until it has finished
      this.worker.postMessage('stop');
      this.stopped = this.exited;
    }
    return this.stopped;
  }
}

const checkpointerFailed = (error: unknown) =>
  process.emitWarning(`SQLite's checkpointer stopped (${String(error)}): the store's own checkpoints go on alone`);

/**
 * The checkpointer thread of a SQLite file, with the store's connection's own checkpoint moved back to
 * the backstop; or none when no thread can be started, and SQLite's own checkpoints (at its default
 * of 1,000 frames) then do all the work.
 */
export function startCheckpointer(file: string, connection: SqliteDatabase.Database): Checkpointer | undefined {
  try {
    const checkpointer = new Checkpointer(file, checkpointerFailed);
    connection.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_FRAMES}`);
    return checkpointer;
  } catch (error) {
    checkpointerFailed(error);
    return undefined;
  }
}
