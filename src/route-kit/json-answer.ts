import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import type { Config } from '../config.js';
import type { LaterPieces } from '../lib/later-pieces.js';
import { whenClosed, type ClosingReply } from './when-closed.js';

/** The content type Fastify gives JSON answers; a listing rendered by the database carries the same. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers up to this size (bytes or characters) are sent whole; longer ones as a stream of pieces. */
const WHOLE = 1 << 20;
/** Characters in one piece of a streamed text. */
const PIECE_CHARS = 1 << 16;

const OPEN = Buffer.from('{');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');

/**
 * The JSON object around map entries already rendered by the database, in pieces each holding
 * entries joined by commas (`"<id>":{…},…`). A usual answer is one piece and is sent whole. A long
 * one is streamed, so it is never copied whole once more: bytes (SQLite) go out as they are; text
 * (PostgreSQL) is encoded a slice at a time.
 */
export function jsonObjectOf(pieces: Array<Buffer | string> | LaterPieces): Buffer | string | Readable {
  if (!Array.isArray(pieces)) return Readable.from(streamedLater(pieces), { objectMode: false });
  if (pieces.length === 0) return '{}';
  const size = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (size <= WHOLE) {
    return typeof pieces[0] === 'string' ? `{${pieces.join(',')}}` : Buffer.concat([OPEN, ...joined(pieces as Buffer[]), CLOSE]);
  }
  return Readable.from(streamed(pieces), { objectMode: false });
}

/*
 * A long answer (LaterPieces) is streamed with Readable.from, which asks for the next piece once
 * what it holds has gone to the socket: the server holds about one piece for a client that does not read.
 */

/** A Fastify reply, whose `send` takes the answer of its route's response schema. */
interface TypedReply extends ClosingReply {
  type(contentType: string): { send(answer: never): unknown };
  raw: ClosingReply['raw'] & { setTimeout(ms: number, onTimeout: () => void): unknown; destroy(): unknown };
  server: { config: Pick<Config, 'longReadStallMs'> };
}

/**
 * Closes a streamed answer once its connection moves no byte for the configured stall time
 * (LONG_READ_STALL_MS): its later pieces hold a database snapshot, which a client that stopped
 * reading must not hold for long (docs/durability.md §7).
 */
export function closeWhenStalled(reply: Pick<TypedReply, 'raw' | 'server'>): void {
  reply.raw.setTimeout(reply.server.config.longReadStallMs, () => reply.raw.destroy());
}

/**
 * Answers map entries rendered by the database (see jsonObjectOf) as the route's JSON object. The
 * route keeps its response schema, which documents the answer; Fastify sends a string, bytes or a
 * stream under a JSON content type as they are, never through that schema's serializer.
 */
export function sendRendered<Reply extends TypedReply>(reply: Reply, pieces: Array<Buffer | string> | LaterPieces): Reply {
  // The one place that knows this text already is the route's answer: `never` lets it pass as that answer's type.
  if (!Array.isArray(pieces)) {
    closeWhenStalled(reply);
    // Once the connection has closed (also before the answer is sent), the snapshot is let go.
    whenClosed(reply, () => void pieces.close().catch(() => undefined));
  }
  reply.type(JSON_TYPE).send(jsonObjectOf(pieces) as never);
  return reply;
}

function joined(pieces: Buffer[]): Buffer[] {
  return pieces.flatMap((piece, i) => (i === 0 ? [piece] : [COMMA, piece]));
}

function* streamed(pieces: Array<Buffer | string>): Generator<Buffer | string> {
  yield OPEN;
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) yield COMMA;
    if (typeof piece === 'string') yield* slices(piece);
    else yield piece;
  }
  yield CLOSE;
}

/** A text in slices, never splitting a surrogate pair (each slice is encoded on its own). */
function* slices(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > PIECE_CHARS) {
    let end = start + PIECE_CHARS;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
  yield text.slice(start);
}

async function* streamedLater(pieces: LaterPieces): AsyncGenerator<Buffer | string> {
  yield OPEN;
  yield* typeof pieces.first === 'string' ? slices(pieces.first) : [pieces.first];
  for await (const piece of pieces.rest) {
    yield COMMA;
    if (typeof piece === 'string') yield* slices(piece);
    else yield piece;
  }
  yield CLOSE;
}
