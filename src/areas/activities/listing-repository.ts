import type { Buffer } from 'node:buffer';
import { dialectOf, type Db, type Dialect } from '../../db/database.js';
import { giveWay, timed } from '../../db/giving-way.js';
import { laterPieces, longReadPlace, openLongRead, type LongRead, type PieceReader, type RenderedPiece } from '../../db/long-reads.js';
import { administersSomeProject } from '../../db/record-scopes.js';
import type { LaterPieces } from '../../lib/later-pieces.js';
import { lastKeyOf, type ListKey } from './listing.js';
import { activityListStatement, LIST_PIECE, type ActivityFilter, type ActivityReader } from './listing-statement.js';

/**
 * Pieces of GET /activities read from the store since the process started, and of those the ones a
 * long listing read after giving way to other requests (tests count them).
 */
export const listingCounters = { piecesRead: 0, piecesAfterGivingWay: 0 };

type PieceOptions = { administers: boolean; after?: ListKey; limit?: number };

async function listPiece(db: Db, dialect: Dialect, filter: ActivityFilter, reader: ActivityReader, options: PieceOptions): Promise<RenderedPiece> {
  listingCounters.piecesRead++;
  const result = await db.executeQuery<RenderedPiece>(activityListStatement(dialect, filter, reader, options));
  return pieceOf(result.rows);
}

const pieceOf = (rows: RenderedPiece[]): RenderedPiece => ({ entries: rows[0].entries, n: Number(rows[0].n) });

/** The pieces of a long listing, read in a long read's snapshot. */
function listingPieces(dialect: Dialect, filter: ActivityFilter, reader: ActivityReader, options: { administers: boolean }): PieceReader<ListKey> {
  return {
    size: LIST_PIECE,
    read: async (snapshot: LongRead, after) => {
      listingCounters.piecesRead++;
      return pieceOf(await snapshot.rows<RenderedPiece>(activityListStatement(dialect, filter, reader, { ...options, after })));
    },
    lastKeyOf,
    gaveWay: () => void listingCounters.piecesAfterGivingWay++,
  };
}

/**
 * With SQLite's reader thread, the most entries a listing reads on the event loop: a shorter answer
 * (a week, a month) is read there at once; a longer one is read again on the thread, in one snapshot.
 */
const ON_EVENT_LOOP = 200;

/**
 * GET /activities: the answer's entries, rendered by the database (see activityListStatement), in
 * pieces to be joined by commas: bytes from SQLite, text from PostgreSQL; none when there is none.
 * Most answers are one piece. A longer one is read again piece after piece in one snapshot (so no
 * activity is missed or repeated between pieces), so that neither store ever builds the whole answer
 * in one buffer, nor copies it again: as the client takes it (db/long-reads.ts laterPieces) on
 * PostgreSQL and on a SQLite file; whole, inside one transaction, on a SQLite store in memory or
 * inside a caller's transaction. `after` starts the listing after that key (a cursor without a limit:
 * the rest of the listing).
 */
export async function listActivitiesJson(
  db: Db,
  filter: ActivityFilter,
  reader: ActivityReader,
  start: { after?: ListKey } = {},
): Promise<Array<Buffer | string> | LaterPieces> {
  const dialect = dialectOf(db);
  const options = { administers: await readerAdministers(db, filter, reader), after: start.after };
  const place = longReadPlace(db);
  const limit = place === 'thread' ? ON_EVENT_LOOP : LIST_PIECE;
  const { value: first, time } = await timed(() => listPiece(db, dialect, filter, reader, place === 'thread' ? { ...options, limit } : options));
  if (first.n < limit) return first.entries === null ? [] : [first.entries];
  // Given way before the snapshot opens, so that it is not held while the listing waits.
  if (place !== undefined && (await giveWay(time))) listingCounters.piecesAfterGivingWay++;
  const snapshot = place === undefined ? undefined : await openLongRead(db);
  if (snapshot !== undefined) return laterPieces(snapshot, listingPieces(dialect, filter, reader, options), start.after);
  const transaction = dialect === 'postgres' ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
  return transaction.execute(async (trx) => {
    const pieces: Array<Buffer | string> = [];
    let after: ListKey | undefined = start.after;
    for (;;) {
      const piece = await listPiece(trx, dialect, filter, reader, { ...options, after });
      if (piece.entries === null) return pieces;
      pieces.push(piece.entries);
      if (piece.n < LIST_PIECE) return pieces;
      after = lastKeyOf(piece.entries);
    }
  });
}

/**
 * One page of GET /activities (`limit` entries at most, after `after`): one statement, one index
 * range. `last` is the key of its last entry when the page is full (more may follow), else undefined.
 */
export async function listActivitiesPage(
  db: Db,
  filter: ActivityFilter,
  reader: ActivityReader,
  page: { limit: number; after?: ListKey },
): Promise<{ entries: Array<Buffer | string>; last: ListKey | undefined }> {
  const administers = await readerAdministers(db, filter, reader);
  const piece = await listPiece(db, dialectOf(db), filter, reader, { administers, ...page });
  if (piece.entries === null) return { entries: [], last: undefined };
  return { entries: [piece.entries], last: piece.n < page.limit ? undefined : lastKeyOf(piece.entries) };
}

/** Most Users administer no project: their listing is then their own activities alone, one index range. */
async function readerAdministers(db: Db, filter: ActivityFilter, reader: ActivityReader): Promise<boolean> {
  return reader.all || filter.userId === reader.userId || administersSomeProject(db, filter.organizationId, reader.userId);
}
