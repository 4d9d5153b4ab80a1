import { minorUnitsOf } from '../../../lib/currencies.js';
import type { Writable } from 'node:stream';
import { Pace } from '../../../lib/turns.js';

/**
 * The neutral table every export writer takes (docs/rules.md §6 Report exports): typed columns, rows
 * that may arrive one at a time (a detailed report streams them from the store), the totals once the
 * rows are read, and what the document is about. A writer decides how each kind looks in its format;
 * the numbers themselves are never reformatted by the caller.
 */

/**
 * What a column holds, and so how each format writes it:
 * - `text`: a string a person typed or a name (neutralised against formula injection in CSV);
 * - `duration`: whole seconds (CSV: decimal hours and H:MM; XLSX: a `[h]:mm` time; PDF: H:MM);
 * - `count`: a whole number;
 * - `money`: an amount in major units of the column's `currency`, already rounded to its minor unit;
 * - `rate`: an amount per hour in the column's `currency` (not rounded to the minor unit);
 * - `date`: a calendar day `YYYY-MM-DD`;
 * - `dateTime`: a wall-clock time `YYYY-MM-DDTHH:MM:SS` in the document's time zone;
 * - `boolean`: true or false.
 */
export type ColumnKind = 'text' | 'duration' | 'count' | 'money' | 'rate' | 'date' | 'dateTime' | 'boolean';

export interface ExportColumn {
  /** The column's stable name, which an override's `column` refers to (e.g. `project`, `time`, `revenue`). */
  key: string;
  /** The header a person reads: the override's label when overrides are enabled. */
  label: string;
  kind: ColumnKind;
  /** For money and rate columns: the ISO 4217 code of their amounts. */
  currency?: string;
}

export type Cell = string | number | boolean | null;

/** A row of a table: its cells, marked when it is a group's subtotal (the PDF sets it in bold). */
export type Row = Cell[] & { subtotal?: true };

export interface ExportTable {
  /** The document's title (the report's name, or "Summary report" / "Detailed report"). */
  title: string;
  /** The workspace's name, shown with the title. */
  workspace?: string;
  /** The report's period: its name (`thisMonth`, `custom`…) and its resolved half-open bounds as UTC instants. */
  period: { name: string; start: string; end: string };
  /** The IANA time zone days, weeks, months and wall-clock times are in. */
  timeZone: string;
  columns: ExportColumn[];
  /**
   * One array of cells a row, in column order (`null` is an empty cell): all at once, or in batches
   * that arrive one after another (a detailed report reads them from the store piece by piece).
   */
  rows: Cell[][] | AsyncIterable<Cell[][]>;
  /** The totals row (in column order, `null` where nothing is summed), asked for once every row is read. */
  totals?: () => Cell[];
  /** For the PDF: bars of the first dimension (label, value in the chart's unit). */
  chart?: { title: string; kind: 'duration' | 'money' | 'count'; currency?: string; bars: Array<{ label: string; value: number }> };
}

/** The digits after the point of a currency's minor unit (ISO 4217: EUR 2, JPY 0, KWD 3). */
export const minorDigits = minorUnitsOf;

/** Seconds as `H:MM`, rounded to the nearest minute (half a minute up); hours are not wrapped at 24. */
export function hoursMinutes(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const minutes = Math.round(Math.abs(seconds) / 60);
  return `${sign}${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Decimal places of decimal hours in exports (hundredths of an hour, as Clockify and Harvest export them). */
export const DECIMAL_HOUR_DIGITS = 2;

/** Seconds as decimal hours, to a hundredth (`5400` → `1.50`). */
export const decimalHours = (seconds: number): string => (seconds / 3600).toFixed(DECIMAL_HOUR_DIGITS);

/** Rows in one batch a writer takes at once when the table holds them all. */
const ROWS_PER_BATCH = 100;

/**
 * Rows at hand in batches of ROWS_PER_BATCH, taking a turn of the event loop whenever the rows and
 * their writing have used their share (lib/turns.ts `Pace`): a summary of 100,000 rows is written (a
 * PDF laid out) without holding other requests meanwhile.
 */
export async function* inTurnsOf(rows: Iterable<Cell[]>): AsyncGenerator<Cell[][]> {
  const pace = new Pace();
  let batch: Cell[][] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length < ROWS_PER_BATCH) continue;
    yield batch;
    batch = [];
    await pace.step();
  }
  if (batch.length > 0) yield batch;
}

/** The rows in batches, however the table holds them: a writer takes a batch in one turn. */
export const batchesOf = async function* (rows: ExportTable['rows']): AsyncGenerator<Cell[][]> {
  if (Array.isArray(rows)) yield* inTurnsOf(rows);
  else yield* rows;
};

/**
 * Waits while the client is behind (the answer's buffer is full), at most until the answer is closed:
 * a writer whose library buffers without bound (exceljs, pdfkit) lays out no more than the client takes.
 */
export async function untilTaken(out: Writable): Promise<void> {
  while (out.writableNeedDrain && !out.destroyed) await drainedOrClosed(out);
}

const drainedOrClosed = (out: Writable) =>
  new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
  });
