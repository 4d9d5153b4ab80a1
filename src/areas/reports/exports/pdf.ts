import { PassThrough, type Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { Pace } from '../../../lib/turns.js';
import { batchesOf, hoursMinutes, minorDigits, untilTaken, type Cell, type ExportColumn, type ExportTable, type Row } from './table.js';

/*
 * The PDF of a summary (docs/rules.md §6 Report exports): A4 landscape with the title, the period and
 * its time zone, a bar chart of the first dimension, then the table (its header repeated on every
 * page) and its totals, and "Page n of m" at the foot of each page. Text is set in the PDF's standard
 * Helvetica, whose characters are those of Windows-1252: any other character is printed as `?`.
 */

const MARGIN = 36;
const ROW_HEIGHT = 16;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const BAR_COLOR = '#3b6fb6';
/** Bars drawn at most; the chart names how many it leaves out. */
const MAX_BARS = 20;

/** Windows-1252's characters beyond Latin-1 (its 0x80–0x9F). */
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const printable = (text: string): string =>
  [...text].map((c) => (c === '\t' || c === '\n' || c === '\r' ? ' ' : (c >= ' ' && c <= '~') || (c >= '\u00a0' && c <= '\u00ff') || CP1252_EXTRA.has(c) ? c : '?')).join('');

const amount = (value: number, currency: string, digits = minorDigits(currency)) =>
  `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: Math.max(digits, 4) })} ${currency}`;

function cellText(column: ExportColumn, cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  switch (column.kind) {
    case 'duration':
      return hoursMinutes(Number(cell));
    case 'money':
      return amount(Number(cell), column.currency ?? 'XXX');
    case 'rate':
      return amount(Number(cell), column.currency ?? 'XXX', 2);
    case 'count':
      return Number(cell).toLocaleString('en-US');
    case 'boolean':
      return cell ? 'yes' : 'no';
    case 'dateTime':
      return String(cell).replace('T', ' ').slice(0, 16);
    default:
      return printable(String(cell));
  }
}

const header = (column: ExportColumn): string =>
  printable((column.kind === 'money' || column.kind === 'rate') && column.currency ? `${column.label} (${column.currency})` : column.label);

const numeric = (column: ExportColumn) => column.kind !== 'text' && column.kind !== 'date' && column.kind !== 'dateTime' && column.kind !== 'boolean';

/** A wall-clock time of an instant in the zone, `YYYY-MM-DD HH:MM`. */
function local(instant: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/**
 * The PDF as a stream, written page after page as it is laid out: rows have one height, so the
 * number of pages ("n of m") is known once the rows are counted, and no page waits for the last.
 */
export function pdfStream(table: ExportTable): Readable {
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: MARGIN, info: { Title: printable(table.title) } });
  // pdfkit buffers what it lays out without bound: the rows wait for the client behind `out`.
  const out = new PassThrough();
  doc.pipe(out);
  doc.on('error', (error: Error) => out.destroy(error));
  lay(doc, out, table).then(
    () => doc.end(),
    (error: unknown) => out.destroy(error as Error),
  );
  return out;
}

async function lay(doc: PDFKit.PDFDocument, out: PassThrough, table: ExportTable): Promise<void> {
  const width = doc.page.width - 2 * MARGIN;
  doc.font(BOLD).fontSize(18).text(printable(table.title), MARGIN, MARGIN, { width });
  doc.moveDown(0.3);
  doc.font(FONT).fontSize(10);
  if (table.workspace !== undefined) doc.text(printable(table.workspace));
  doc.text(`Period: ${table.period.name}, ${local(table.period.start, table.timeZone)} to ${local(table.period.end, table.timeZone)}`);
  doc.text(`Time zone: ${table.timeZone}`);
  doc.moveDown(0.8);
  if (table.chart && table.chart.bars.length > 0) chart(doc, table.chart, width);

  // A summary's rows are at hand (made a batch a turn): counted first, for "Page n of m".
  const batches: Cell[][][] = [];
  for await (const batch of batchesOf(table.rows)) batches.push(batch);
  const rowCount = batches.reduce((sum, batch) => sum + batch.length, 0) + (table.totals ? 1 : 0);
  const pages = pagesFor(doc, rowCount);
  let page = 1;
  const foot = () => {
    // In the bottom margin: with the margin kept, pdfkit would begin a new page for the text.
    const { bottom } = doc.page.margins;
    doc.page.margins.bottom = 0;
    doc.font(FONT).fontSize(8).fillColor('#555555');
    doc.text(`Page ${page} of ${pages}`, MARGIN, doc.page.height - MARGIN + 8, { width, align: 'right', lineBreak: false });
    doc.fillColor('black');
    doc.page.margins.bottom = bottom;
  };

  const widths = columnWidths(doc, table, batches, width);
  const drawRow = (texts: string[], bold: boolean) => {
    if (breaksBefore(doc, doc.y)) {
      foot();
      doc.addPage();
      page++;
      drawRow(table.columns.map(header), true);
    }
    const y = doc.y;
    let x = MARGIN;
    doc.font(bold ? BOLD : FONT).fontSize(9);
    texts.forEach((text, i) => {
      doc.text(text, x + 2, y + 4, { width: widths[i] - 4, height: ROW_HEIGHT - 4, lineBreak: false, ellipsis: true, align: numeric(table.columns[i]) ? 'right' : 'left' });
      x += widths[i];
    });
    doc.moveTo(MARGIN, y + ROW_HEIGHT).lineTo(MARGIN + width, y + ROW_HEIGHT).lineWidth(0.3).strokeColor('#bbbbbb').stroke();
    doc.x = MARGIN;
    doc.y = y + ROW_HEIGHT;
  };
  drawRow(table.columns.map(header), true);
  // A turn whenever the layout has used its share: the pages laid so far go out and other requests are served meanwhile.
  const pace = new Pace();
  for (const batch of batches) {
    for (const cells of batch as Row[]) {
      drawRow(table.columns.map((column, i) => cellText(column, cells[i] ?? null)), cells.subtotal === true);
      if (pace.due) {
        await pace.turn();
        await untilTaken(out);
        if (out.destroyed) return;
      }
    }
  }
  if (table.totals) {
    const totals = table.totals();
    drawRow(table.columns.map((column, i) => cellText(column, totals[i] ?? null)), true);
  }
  foot();
}

/** Whether a row starting at `y` goes to the next page (its header repeated there). */
const breaksBefore = (doc: PDFKit.PDFDocument, y: number): boolean => y + ROW_HEIGHT > doc.page.height - MARGIN - ROW_HEIGHT;

/** The pages the table takes: its header row and `rows` rows from the current position, as drawRow lays them. */
function pagesFor(doc: PDFKit.PDFDocument, rows: number): number {
  let pages = 1;
  let y = doc.y;
  for (let row = 0; row <= rows; row++) {
    // Row 0 is the header; a new page starts with the header again.
    if (breaksBefore(doc, y)) {
      pages++;
      y = MARGIN + ROW_HEIGHT;
    }
    y += ROW_HEIGHT;
  }
  return pages;
}

/** Rows whose text is measured to size the columns (the widest of a longer table is likely among them). */
const MEASURED_ROWS = 2_000;
/** What a cell leaves on either side of its text. */
const CELL_PADDING = 6;
/** The least a text column is given when the columns' text is wider than the page. */
const NARROWEST_TEXT = 60;

/**
 * Each column as wide as its widest text (the header in bold, the first rows and the totals): when
 * that is wider than the page, the other columns keep theirs and the text columns share what is left
 * in proportion to their need; when narrower, the text columns share what is spare.
 */
function columnWidths(doc: PDFKit.PDFDocument, table: ExportTable, batches: Cell[][][], width: number): number[] {
  const { columns } = table;
  const needs = columns.map((column) => doc.font(BOLD).fontSize(9).widthOfString(header(column)) + CELL_PADDING);
  const measure = (cells: Cell[], bold: boolean) => {
    doc.font(bold ? BOLD : FONT).fontSize(9);
    columns.forEach((column, i) => (needs[i] = Math.max(needs[i], doc.widthOfString(cellText(column, cells[i] ?? null)) + CELL_PADDING)));
  };
  let measured = 0;
  for (const batch of batches) {
    for (const cells of batch as Row[]) if (measured++ < MEASURED_ROWS) measure(cells, cells.subtotal === true);
    if (measured >= MEASURED_ROWS) break;
  }
  if (table.totals) measure(table.totals(), true);
  const text = columns.map((column) => column.kind === 'text');
  const textNeed = needs.reduce((sum, need, i) => sum + (text[i] ? need : 0), 0);
  const otherNeed = needs.reduce((sum, need, i) => sum + (text[i] ? 0 : need), 0);
  let widths: number[];
  if (textNeed === 0) widths = needs;
  else {
    // What the text columns get in all: the room left, never less than their narrowest.
    const textRoom = Math.max(width - otherNeed, NARROWEST_TEXT * text.filter(Boolean).length);
    widths = needs.map((need, i) => (text[i] ? Math.max(NARROWEST_TEXT, (need / textNeed) * textRoom) : need));
  }
  const scale = Math.min(1, width / widths.reduce((sum, w) => sum + w, 0));
  return widths.map((w) => w * scale);
}

function chart(doc: PDFKit.PDFDocument, spec: NonNullable<ExportTable['chart']>, width: number): void {
  const bars = spec.bars.slice(0, MAX_BARS);
  const labelWidth = Math.min(200, width * 0.3);
  const valueWidth = 110;
  const barArea = width - labelWidth - valueWidth;
  const max = Math.max(...bars.map((bar) => bar.value), 0);
  const format = (value: number) =>
    spec.kind === 'duration' ? hoursMinutes(value) : spec.kind === 'money' ? amount(value, spec.currency ?? 'XXX') : value.toLocaleString('en-US');
  doc.font(BOLD).fontSize(11).fillColor('black').text(printable(spec.title), MARGIN, doc.y);
  doc.moveDown(0.3);
  for (const bar of bars) {
    const y = doc.y;
    doc.font(FONT).fontSize(9).fillColor('black');
    doc.text(printable(bar.label), MARGIN, y + 2, { width: labelWidth - 6, height: 12, lineBreak: false, ellipsis: true });
    const length = max > 0 ? Math.max(0, (bar.value / max) * barArea) : 0;
    if (length > 0) doc.rect(MARGIN + labelWidth, y + 2, length, 10).fill(BAR_COLOR);
    doc.fillColor('black').text(format(bar.value), MARGIN + labelWidth + length + 4, y + 2, { width: valueWidth, lineBreak: false });
    doc.x = MARGIN;
    doc.y = y + 14;
  }
  if (spec.bars.length > bars.length) doc.font(FONT).fontSize(8).text(`… and ${spec.bars.length - bars.length} more`, MARGIN, doc.y);
  doc.moveDown(1);
  doc.fillColor('black');
}
