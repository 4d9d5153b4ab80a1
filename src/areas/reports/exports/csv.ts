import { Readable } from 'node:stream';
import { batchesOf, decimalHours, hoursMinutes, minorDigits, type Cell, type ExportColumn, type ExportTable } from './table.js';

/*
 * CSV as RFC 4180 writes it (docs/rules.md §6 Report exports): UTF-8 with a byte-order mark (so
 * spreadsheet programs read it as UTF-8), CRLF after every record, a field quoted when it holds a
 * comma, a quote, CR or LF, quotes inside doubled. A duration is two fields, decimal hours and H:MM.
 */

const BOM = '\uFEFF';
const CRLF = '\r\n';
/** Characters gathered before a piece goes to the client. */
const PIECE_CHARS = 1 << 16;

/**
 * Text that a spreadsheet would run as a formula (OWASP "CSV injection"): a cell beginning with one of
 * these gets a leading apostrophe. Only text cells are neutralised: numbers the service writes itself
 * (a negative profit `-12.50`, a count) hold only digits, a sign and a point, and stay numbers a
 * spreadsheet can sum.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export const neutralised = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** A field as RFC 4180 writes it: quoted when it must be. */
export const field = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** The header fields of a column: durations take two, money names its currency. */
function headers(column: ExportColumn): string[] {
  switch (column.kind) {
    case 'duration':
      return [`${column.label} (h)`, `${column.label} (H:MM)`];
    case 'money':
    case 'rate':
      return column.currency ? [`${column.label} (${column.currency})`] : [column.label];
    default:
      return [column.label];
  }
}

/** A column's cell as its fields (as many as its headers, joined by commas), decided once per column. */
function fieldsWriter(column: ExportColumn): (cell: NonNullable<Cell>) => string {
  switch (column.kind) {
    case 'duration':
      return (cell) => `${decimalHours(Number(cell))},${hoursMinutes(Number(cell))}`;
    case 'money': {
      const digits = minorDigits(column.currency ?? 'XXX');
      return (cell) => Number(cell).toFixed(digits);
    }
    case 'count':
    case 'rate':
      return String;
    case 'boolean':
      return (cell) => (cell ? 'true' : 'false');
    case 'dateTime':
      // `2026-07-01 09:00:00`: the form spreadsheet programs read as a date and time.
      return (cell) => String(cell).replace('T', ' ');
    default:
      return (cell) => field(neutralised(String(cell)));
  }
}

/** Writes a row of the columns as one CSV record. */
function recordWriter(columns: ExportColumn[]): (cells: Cell[]) => string {
  const writers = columns.map((column) => {
    const write = fieldsWriter(column);
    const empty = column.kind === 'duration' ? ',' : '';
    return (cell: Cell | undefined) => (cell === null || cell === undefined ? empty : write(cell));
  });
  return (cells) => {
    let line = writers[0](cells[0]);
    for (let i = 1; i < writers.length; i++) line += ',' + writers[i](cells[i]);
    return line + CRLF;
  };
}

/** The table as CSV text, in pieces of about 64 kB, read from the rows as the client takes them. */
export async function* csvPieces(table: ExportTable): AsyncGenerator<string> {
  const { columns } = table;
  const record = recordWriter(columns);
  let piece = BOM + columns.flatMap(headers).map((header) => field(neutralised(header))).join(',') + CRLF;
  for await (const batch of batchesOf(table.rows)) {
    for (const cells of batch) {
      piece += record(cells);
      if (piece.length >= PIECE_CHARS) {
        yield piece;
        piece = '';
      }
    }
  }
  if (table.totals) piece += record(table.totals());
  yield piece;
}

/** The CSV as a stream that reads the next rows only once the client has taken the ones before. */
export const csvStream = (table: ExportTable): Readable => Readable.from(csvPieces(table), { objectMode: false });
