import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

/** How often the checkpointer copies the WAL's new frames into the database file. */
const CHECKPOINT_INTERVAL_MS = 100;

/** SQLite's own automatic checkpoint, in WAL frames: what the connection falls back to without a checkpointer. */
const AUTOCHECKPOINT_FRAMES = 1000;

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
 * Checkpoints a WAL-mode SQLite file from a worker thread with a connection of its own, so that the
 * event loop never copies WAL frames into the database file nor waits for that file's fsync: left to
 * SQLite, every thousandth frame makes the commit that wrote it run the whole checkpoint inline.
 * A PASSIVE checkpoint takes no lock a writer needs: commits go on while it copies.
 *
 * The store's own connection stops checkpointing; if the worker fails, it checkpoints again as SQLite
 * would (`onError` is told). Crash safety is SQLite's: a checkpoint cut short is redone from the WAL.
 */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private stopped: Promise<void> | undefined;

  constructor(
    private readonly connection: SqliteDatabase.Database,
    file: string,
    onError: (error: unknown) => void,
  ) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    connection.pragma('wal_autocheckpoint = 0');
    this.worker.on('error', (error) => {
      this.autocheckpoint();
      onError(error);
    });
  }

  /** Runs a last checkpoint, then ends the worker; the store's connection checkpoints on its own again. */
  stop(): Promise<void> {
    if (this.stopped === undefined) {
      this.worker.ref(); // kept unreferenced while it runs, it must hold the process open until it has finished
      this.worker.postMessage('stop');
      this.stopped = this.exited.then(() => this.autocheckpoint());
    }
    return this.stopped;
  }

  private autocheckpoint(): void {
    if (this.connection.open) this.connection.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_FRAMES}`);
  }
}
