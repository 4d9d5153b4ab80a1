import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { nextTurn } from '../../../lib/turns.js';
import { batchesOf, minorDigits, untilTaken, type Cell, type ExportColumn, type ExportTable } from './table.js';

/*
 * XLSX written by exceljs's streaming writer (docs/rules.md §6 Report exports): each row goes to the
 * zip as it is added, so a detailed report of a million entries never sits in memory. Cells are
 * typed: numbers, dates, durations as Excel times (fractions of a day) shown `[h]:mm`, money with
 * its currency's decimals. The header row is frozen, the totals row is bold, and a second sheet
 * "About" names the report, its period and its time zone.
 */

const SECONDS_A_DAY = 86_400;
/** Rows added between two looks at the client's pace. */
const ROWS_BETWEEN_CHECKS = 500;

function numberFormat(column: ExportColumn): string | undefined {
  switch (column.kind) {
    case 'duration':
      return '[h]:mm';
    case 'money': {
      const digits = minorDigits(column.currency ?? 'XXX');
      return digits === 0 ? '#,##0' : `#,##0.${'0'.repeat(digits)}`;
    }
    case 'rate':
      return '#,##0.00##';
    case 'count':
      return '0';
    case 'date':
      return 'yyyy-mm-dd';
    case 'dateTime':
      return 'yyyy-mm-dd hh:mm';
    default:
      return undefined;
  }
}

const header = (column: ExportColumn): string =>
  (column.kind === 'money' || column.kind === 'rate') && column.currency ? `${column.label} (${column.currency})` : column.label;

/** A cell as the spreadsheet types it. Dates and wall-clock times are written as UTC, which Excel shows as they are. */
function value(column: ExportColumn, cell: Cell): ExcelJS.CellValue {
  if (cell === null || cell === undefined) return null;
  switch (column.kind) {
    case 'duration':
      return Number(cell) / SECONDS_A_DAY;
    case 'money':
    case 'rate':
    case 'count':
      return Number(cell);
    // A label in a date column (the totals row's "Total") stays text.
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(String(cell)) ? new Date(`${String(cell)}T00:00:00Z`) : String(cell);
    case 'dateTime':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(String(cell)) ? new Date(`${String(cell)}Z`) : String(cell);
    case 'boolean':
      return Boolean(cell);
    default:
      return String(cell);
  }
}

const widthOf = (column: ExportColumn): number =>
  Math.min(60, Math.max(header(column).length + 2, column.kind === 'text' ? 24 : column.kind === 'dateTime' ? 18 : 12));

/** The workbook as a stream; rows are read as the client takes the bytes before them. */
export function xlsxStream(table: ExportTable): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.title = table.title;
  workbook.created = new Date(0);
  write(workbook, out, table).catch((error: unknown) => out.destroy(error as Error));
  return out;
}

async function write(workbook: ExcelJS.stream.xlsx.WorkbookWriter, out: PassThrough, table: ExportTable): Promise<void> {
  const { columns } = table;
  const sheet = workbook.addWorksheet('Report', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((column) => ({ key: column.key, width: widthOf(column), style: { numFmt: numberFormat(column) } }));
  const head = sheet.addRow(columns.map(header));
  head.font = { bold: true };
  head.commit();
  let added = 0;
  for await (const batch of batchesOf(table.rows)) {
    for (const cells of batch) {
      sheet.addRow(columns.map((column, i) => value(column, cells[i] ?? null))).commit();
      // exceljs buffers what the zip has not taken without bound: a turn lets the zip work, then the rows wait for the client.
      if (++added % ROWS_BETWEEN_CHECKS === 0) await nextTurn().then(() => untilTaken(out));
      if (out.destroyed) return;
    }
  }
  if (table.totals) {
    const cells = table.totals();
    const totals = sheet.addRow(columns.map((column, i) => value(column, cells[i] ?? null)));
    totals.font = { bold: true };
    totals.commit();
  }
  sheet.commit();
  const about = workbook.addWorksheet('About');
  about.columns = [{ width: 14 }, { width: 40 }];
  for (const line of [
    ['Report', table.title],
    ...(table.workspace === undefined ? [] : [['Workspace', table.workspace]]),
    ['Period', table.period.name],
    ['Start', table.period.start],
    ['End', table.period.end],
    ['Time zone', table.timeZone],
  ]) {
    about.addRow(line).commit();
  }
  about.commit();
  await workbook.commit();
}
