import { Readable } from 'node:stream';
import { Pace } from '../../lib/turns.js';
import type { SummaryResult } from './engine/summary.js';
import type { SummaryRow } from './engine/tree.js';

/*
 * A summary's JSON answer. A usual one is JSON.stringify's text, sent whole. A filled answer of up to
 * 100,000 rows is written row after row in pieces, taking turns of the event loop (lib/turns.ts), so
 * that writing 9 MB of JSON holds no other request for longer than a slice: the same text as
 * JSON.stringify, streamed as the client reads it.
 */

/** Rows up to which the answer is one JSON.stringify. */
const WHOLE_ROWS = 5_000;
/** Characters gathered before a piece goes to the client. */
const PIECE_CHARS = 1 << 16;

/** The summary as its JSON text: a string, or a stream of pieces for a long answer. */
export function summaryJson(result: SummaryResult): string | Readable {
  if (rowsUnder(result.rows, WHOLE_ROWS) < WHOLE_ROWS) return JSON.stringify(result);
  return Readable.from(pieces(result), { objectMode: false });
}

/** The rows of the tree, counted up to `limit`. */
function rowsUnder(rows: readonly SummaryRow[], limit: number): number {
  let count = 0;
  for (const row of rows) {
    count += 1 + (row.rows === undefined ? 0 : rowsUnder(row.rows, limit - count));
    if (count >= limit) break;
  }
  return count;
}

async function* pieces(result: SummaryResult): AsyncGenerator<string> {
  const pace = new Pace();
  let piece = '';
  for (const text of objectText(result)) {
    piece += text;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
    if (pace.due) await pace.turn();
  }
  if (piece.length > 0) yield piece;
}

/** An object's text, its fields in their order, `rows` one row after another (the result and a row with rows below it). */
function* objectText(value: SummaryResult | SummaryRow): Generator<string> {
  let separator = '{';
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    yield `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    if (key === 'rows') yield* rowsText(field as SummaryRow[]);
    else yield JSON.stringify(field);
  }
  yield separator === '{' ? '{}' : '}';
}

function* rowsText(rows: readonly SummaryRow[]): Generator<string> {
  yield '[';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) yield ',';
    const row = rows[i];
    if (row.rows === undefined) yield JSON.stringify(row);
    else yield* objectText(row);
  }
  yield ']';
}
