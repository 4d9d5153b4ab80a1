import type { Buffer } from 'node:buffer';
import type { CompiledQuery } from 'kysely';
import type { LaterPieces } from '../lib/later-pieces.js';
import { dialectOf, snapshotReaderOf, startLongRead, type Db } from './database.js';
import { giveWay, timed, type PieceTime } from './giving-way.js';

/*
 * Long reads: answers too long for one statement (GET /activities over years, a detailed report's
 * file), read piece after piece from one snapshot so that no row is missed or repeated between pieces,
 * beside the other requests (docs/durability.md §7).
 */

/** One snapshot a long read takes its pieces from, until it is ended. */
export interface LongRead {
  /** Runs one read statement in the snapshot. */
  rows<Row>(statement: CompiledQuery): Promise<Row[]>;
  /** Ends the snapshot: commits when the read completed, rolls back otherwise. */
  end(completed: boolean): Promise<void>;
}

/**
 * Where a long read of this handle can take a snapshot apart from the handle's requests: SQLite's
 * reader thread (a file), PostgreSQL's long-read pool (outside a transaction); none on a SQLite store
 * in memory or inside a transaction, whose reads belong to the caller.
 */
export function longReadPlace(db: Db): 'thread' | 'postgres' | undefined {
  if (snapshotReaderOf(db) !== undefined) return 'thread';
  return dialectOf(db) === 'postgres' && db.isTransaction === false ? 'postgres' : undefined;
}

/** Opens the snapshot of longReadPlace (undefined where there is none). */
export async function openLongRead(db: Db): Promise<LongRead | undefined> {
  const thread = snapshotReaderOf(db);
  if (thread !== undefined) {
    const snapshot = await thread.snapshot();
    return { rows: (statement) => snapshot.rows(statement), end: () => snapshot.end() };
  }
  if (longReadPlace(db) !== 'postgres') return undefined;
  const trx = await startLongRead(db);
  return {
    rows: async <Row>(statement: CompiledQuery) => (await trx.executeQuery<Row>(statement)).rows,
    end: async (completed) => void (completed ? await trx.commit().execute() : await trx.rollback().execute()),
  };
}

/** Runs one read statement: what a read beside the requests is given. */
export type ReadStatement = <Row>(statement: CompiledQuery) => Promise<Row[]>;

/**
 * Runs a read of a few statements beside the event loop where the store allows it: on a SQLite file,
 * in one snapshot of the reader thread, so that an aggregate over a long period holds no other
 * request (PostgreSQL computes in its own processes, and runs them on the handle as SQLite in memory
 * and a transaction do).
 */
export async function readBesideRequests<T>(db: Db, read: (rows: ReadStatement) => Promise<T>): Promise<T> {
  const thread = snapshotReaderOf(db);
  if (thread === undefined) return read(async (statement) => (await db.executeQuery(statement)).rows as never);
  const snapshot = await thread.snapshot();
  try {
    return await read((statement) => snapshot.rows(statement));
  } finally {
    await snapshot.end();
  }
}

/**
 * Runs a read of pieces (Kysely queries on the handle it is given) in one PostgreSQL snapshot of the
 * long-read pool, ended when the read completes or is abandoned (the generator's return rolls it
 * back). On SQLite, and inside a transaction, the read runs on the handle as it is.
 */
export async function* inPostgresSnapshot<T>(db: Db, read: (db: Db) => AsyncIterable<T>): AsyncGenerator<T> {
  if (longReadPlace(db) !== 'postgres') {
    yield* read(db);
    return;
  }
  const trx = await startLongRead(db);
  let ended = false;
  try {
    yield* read(trx);
    ended = true;
    await trx.commit().execute();
  } finally {
    if (!ended) await trx.rollback().execute();
  }
}

/** One piece of a rendered long read: its entries joined by commas (bytes from SQLite, text from PostgreSQL) and how many. */
export interface RenderedPiece {
  entries: Buffer | string | null;
  n: number;
}

/** How a rendered long read reads its pieces: each after the key of the one before, `size` entries at most. */
export interface PieceReader<Key> {
  size: number;
  read(snapshot: LongRead, after: Key | undefined): Promise<RenderedPiece>;
  lastKeyOf(entries: Buffer | string): Key;
  /** Called when the read waited for other requests before a piece (tests count them). */
  gaveWay?(): void;
}

/**
 * A rendered long read as the client takes it, from one snapshot that stays open until the last piece
 * is read or the answer is abandoned (the stream closes the generator, which ends the snapshot). A
 * client that does not read thus holds one snapshot and about one piece, never the whole answer.
 * While the process serves other requests, each piece waits as long as the one before took
 * (giveWay), so that a flood of long reads does not take the database's time from them.
 */
export async function laterPieces<Key>(
  snapshot: LongRead,
  reader: PieceReader<Key>,
  start: Key | undefined,
): Promise<Array<Buffer | string> | LaterPieces> {
  const giveWayCounted = async (last: PieceTime) => {
    if (await giveWay(last)) reader.gaveWay?.();
  };
  let first: RenderedPiece;
  let firstTime: PieceTime;
  try {
    ({ value: first, time: firstTime } = await timed(() => reader.read(snapshot, start)));
  } catch (error) {
    await snapshot.end(false);
    throw error;
  }
  if (first.entries === null || first.n < reader.size) {
    await snapshot.end(true);
    return first.entries === null ? [] : [first.entries];
  }
  const firstEntries = first.entries;
  let ending: Promise<void> | undefined;
  const end = (completed: boolean) => (ending ??= snapshot.end(completed));
  let started = false;
  async function* rest(): AsyncGenerator<Buffer | string> {
    started = true;
    let ended = false;
    try {
      let after = reader.lastKeyOf(firstEntries);
      let last = firstTime;
      for (;;) {
        await giveWayCounted(last);
        const { value: piece, time } = await timed(() => reader.read(snapshot, after));
        last = time;
        if (piece.entries === null) break;
        yield piece.entries;
        if (piece.n < reader.size) break;
        after = reader.lastKeyOf(piece.entries);
      }
      ended = true;
      await end(true);
    } finally {
      if (!ended) await end(false);
    }
  }
  // Once started, the generator ends the snapshot itself (a closed stream returns it); one never started cannot.
  return { first: firstEntries, rest: rest(), close: () => (started ? Promise.resolve() : end(false)) };
}
