import { closeSync, fdatasync, openSync } from 'node:fs';
import path from 'node:path';

/** Flushes one file to disk; replaceable in tests to observe or hold the flush. */
export type Flush = (file: string) => Promise<void>;

/**
 * fdatasync through handles kept open (opening and closing one per flush cost more than the flush).
 * SQLite never replaces the WAL file while its connection is open, so a handle stays on the right
 * file; after a failure the next flush opens the file afresh.
 */
class KeptOpenFiles {
  private readonly fds = new Map<string, number>();

  readonly flush: Flush = (file) =>
    new Promise<void>((resolve, reject) => {
      let fd = this.fds.get(file);
      if (fd === undefined) {
        try {
          fd = openSync(file, 'r');
        } catch (error) {
          reject(error);
          return;
        }
        this.fds.set(file, fd);
      }
      fdatasync(fd, (error) => {
        if (!error) return resolve();
        this.fds.delete(file);
        closeSync(fd);
        reject(error);
      });
    });

  async close(): Promise<void> {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}

/**
 * Group commit for a SQLite store in WAL mode at `synchronous = NORMAL`.
 *
 * At FULL, SQLite flushes the WAL inside every COMMIT, on the thread that runs it: better-sqlite3
 * runs on the event loop, so every write request stalled the whole server for an fsync. At NORMAL a
 * commit only writes the WAL; this flushes it afterwards, off the event loop, once for every commit
 * made since the previous flush, and a write is acknowledged only once a flush that started after
 * its commit has finished. That is FULL's promise (what was acknowledged survives a power loss), at
 * one flush for many concurrent writes instead of one each. (A checkpoint, by the Checkpointer's
 * thread or by SQLite itself, flushes the WAL before and the database file after it, at NORMAL as at
 * FULL.)
 *
 * Writes are counted as they commit (`noteWrite`: a write outside a transaction, or the COMMIT of a
 * transaction that wrote); `durable()` resolves when every write counted so far is on disk. A flush
 * covers all frames written before it starts: fdatasync writes back every dirty page of the file,
 * whichever descriptor wrote it.
 */
export class WalSync {
  private written = 0;
  private flushed = 0;
  private flushing: Promise<void> | undefined;
  private directoryFlushed = false;
  private readonly files = new KeptOpenFiles();
  private readonly flush: Flush;

  constructor(
    private readonly databaseFile: string,
    flush?: Flush,
  ) {
    this.flush = flush ?? this.files.flush;
  }

  noteWrite(): void {
    this.written++;
  }

  /** Whether writes are waiting for a flush (a cheap test before awaiting durable()). */
  get pending(): boolean {
    return this.flushed < this.written;
  }

  /** Resolves once every write noted before this call is on disk; rejects when a flush fails. */
  async durable(): Promise<void> {
    const needed = this.written;
    while (this.flushed < needed) {
      // One flush at a time: a write noted during a flush waits for the next one, which covers all of them.
      this.flushing ??= this.flushOnce().finally(() => {
        this.flushing = undefined;
      });
      await this.flushing;
    }
  }

  /** Flushes what is pending, then lets go of the files. */
  async close(): Promise<void> {
    await this.durable();
    await this.files.close();
  }

  private async flushOnce(): Promise<void> {
    const covered = this.written;
    await this.flush(`${this.databaseFile}-wal`);
    if (!this.directoryFlushed) {
      // The WAL's directory entry, once: a file created since its folder was last flushed could vanish with it.
      await this.flush(path.dirname(path.resolve(this.databaseFile)));
      this.directoryFlushed = true;
    }
    this.flushed = Math.max(this.flushed, covered);
  }
}
