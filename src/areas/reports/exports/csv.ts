import { Readable } from 'node:stream';
import { decimalHours, hoursMinutes, moneyText, rowsOf, type Cell, type ExportColumn, type ExportTable } from './table.js';

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

/** The fields of one cell, as many as its column's headers. */
function fields(column: ExportColumn, cell: Cell): string[] {
  if (cell === null || cell === undefined) return column.kind === 'duration' ? ['', ''] : [''];
  switch (column.kind) {
    case 'duration':
      return [decimalHours(Number(cell)), hoursMinutes(Number(cell))];
    case 'money':
      return [moneyText(Number(cell), column.currency ?? 'XXX')];
    case 'count':
    case 'rate':
      return [String(cell)];
    case 'boolean':
      return [cell ? 'true' : 'false'];
    case 'dateTime':
      // `2026-07-01 09:00:00`: the form spreadsheet programs read as a date and time.
      return [String(cell).replace('T', ' ')];
    default:
      return [field(neutralised(String(cell)))];
  }
}

const record = (columns: ExportColumn[], cells: Cell[]): string =>
  columns.flatMap((column, i) => fields(column, cells[i] ?? null)).join(',') + CRLF;

/** The table as CSV text, in pieces of about 64 kB, read from the rows as the client takes them. */
export async function* csvPieces(table: ExportTable): AsyncGenerator<string> {
  const { columns } = table;
  let piece = BOM + columns.flatMap(headers).map((header) => field(neutralised(header))).join(',') + CRLF;
  for await (const cells of rowsOf(table.rows)) {
    piece += record(columns, cells);
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  if (table.totals) piece += record(columns, table.totals());
  yield piece;
}

export const CSV_TYPE = 'text/csv; charset=utf-8; header=present';

/** The CSV as a stream that reads the next rows only once the client has taken the ones before. */
export const csvStream = (table: ExportTable): Readable => Readable.from(csvPieces(table), { objectMode: false });
