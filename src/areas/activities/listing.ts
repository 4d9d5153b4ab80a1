import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';

/** The content type Fastify gives JSON answers; a listing rendered by the database carries the same. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers up to this size (bytes or characters) are sent whole; longer ones as a stream of pieces. */
const WHOLE = 1 << 20;
/** Characters in one piece of a streamed text. */
const PIECE_CHARS = 1 << 16;

const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');

/**
 * The JSON object around map entries already rendered and joined by the database (`"<id>":{…},…`,
 * or null for none). A usual answer is sent whole. A long one is streamed, so it is never copied
 * whole once more: bytes (SQLite) go out as they are between the braces; text (PostgreSQL) is
 * encoded a piece at a time.
 */
export function jsonObjectOf(entries: Buffer | string | null): Buffer | string | Readable {
  if (entries === null) return '{}';
  if (typeof entries === 'string') {
    if (entries.length <= WHOLE) return `{${entries}}`;
    return Readable.from(pieces(entries), { objectMode: false });
  }
  if (entries.length <= WHOLE) return Buffer.concat([OPEN, entries, CLOSE]);
  return Readable.from([OPEN, entries, CLOSE], { objectMode: false });
}

/** The text between braces in pieces, never splitting a surrogate pair (each piece is encoded on its own). */
function* pieces(text: string): Generator<string> {
  yield '{';
  let start = 0;
  while (text.length - start > PIECE_CHARS) {
    let end = start + PIECE_CHARS;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
  yield text.slice(start);
  yield '}';
}
