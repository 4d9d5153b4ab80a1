import type { SummaryResult } from './engine/summary.js';
import type { Dimension, SummaryRow, SummaryTotals } from './engine/tree.js';
import { wallClock, type Labeller } from './detail-rules.js';
import type { PeriodDays } from './exports/disposition.js';
import { inTurnsOf, type Cell, type ExportColumn, type ExportTable, type Row } from './exports/table.js';

/*
 * A summary as an export's table (docs/rules.md §6 Report exports): one row per leaf of the tree,
 * with a column per dimension (a project's, user's, member's, client's, task's or tag's name; a day as a date; a week
 * `2026-W27` and a month `2026-07` as their keys) and per metric (durations, entries, one money column
 * per currency of the totals), then the totals row. The PDF's chart shows the first dimension's rows.
 */

const DIMENSION_LABELS: Record<Dimension, string> = {
  project: 'Project',
  user: 'User',
  member: 'Member',
  day: 'Day',
  week: 'Week',
  month: 'Month',
  client: 'Client',
  task: 'Task',
  tag: 'Tag',
};

type DurationMetric = 'time' | 'billableTime' | 'unpricedBillableTime' | 'uncostedTime' | 'revenueWithheldTime';
type MoneyMetric = 'revenue' | 'cost' | 'profit';

const DURATIONS: Array<[DurationMetric, string]> = [
  ['time', 'Time'],
  ['billableTime', 'Billable time'],
  ['unpricedBillableTime', 'Unpriced billable time'],
  ['uncostedTime', 'Uncosted time'],
  ['revenueWithheldTime', 'Revenue withheld time'],
];
const MONEY: Array<[MoneyMetric, string]> = [
  ['revenue', 'Revenue'],
  ['cost', 'Cost'],
  ['profit', 'Profit'],
];

/** A metric's cell of a row or the totals. */
function metricCell(column: ExportColumn, values: SummaryTotals): Cell {
  if (column.key === 'entries') return values.entries;
  if (column.kind === 'money') return (values[column.key as MoneyMetric] ?? {})[column.currency!] ?? 0;
  return values[column.key as DurationMetric] ?? 0;
}

/** A dimension's cell: the key of a time dimension, the label (a name) of the others. */
const dimensionCell = (dimension: Dimension, row: SummaryRow): Cell =>
  dimension === 'day' || dimension === 'week' || dimension === 'month' ? row.key : row.label;

/** The leaves of the tree, each with the rows above it; a row without children below the last dimension counts as a leaf. */
function* leaves(rows: SummaryRow[], path: SummaryRow[] = []): Generator<SummaryRow[]> {
  for (const row of rows) {
    if (row.rows && row.rows.length > 0) yield* leaves(row.rows, [...path, row]);
    else yield [...path, row];
  }
}

/** What a file adds to the table: the workspace's name with the title; subtotal rows (the PDF's, a reader's page). */
export interface TableExtras {
  workspace?: string;
  /** A row after each group of the first dimension with that group's figures, when there are two dimensions or more. */
  subtotals?: boolean;
}

export function summaryTable(result: SummaryResult, title: string, label: Labeller, extras: TableExtras = {}): ExportTable {
  const { totals, dimensions } = result;
  const dimensionColumns: ExportColumn[] = dimensions.map((dimension) => ({
    key: dimension,
    label: label(dimension, DIMENSION_LABELS[dimension]),
    kind: dimension === 'day' ? 'date' : 'text',
  }));
  const metricColumns: ExportColumn[] = [
    ...DURATIONS.filter(([metric]) => totals[metric] !== undefined).map(([metric, own]): ExportColumn => ({ key: metric, label: label(metric, own), kind: 'duration' })),
    { key: 'entries', label: label('entries', 'Entries'), kind: 'count' },
    ...MONEY.flatMap(([metric, own]) =>
      Object.keys(totals[metric] ?? {})
        .sort()
        .map((currency): ExportColumn => ({ key: metric, label: label(metric, own), kind: 'money', currency })),
    ),
  ];
  const columns = [...dimensionColumns, ...metricColumns];
  const subtotals = extras.subtotals === true && dimensions.length > 1;
  function* cells(): Generator<Row> {
    for (const top of result.rows) {
      for (const path of leaves([top])) {
        const leaf = path[path.length - 1];
        yield [...dimensions.map((dimension, i) => (path[i] ? dimensionCell(dimension, path[i]) : null)), ...metricColumns.map((column) => metricCell(column, leaf))];
      }
      if (!subtotals || !top.rows?.length) continue;
      const subtotal: Row = [`Total ${dimensionCell(dimensions[0], top)}`, ...dimensions.slice(1).map(() => null), ...metricColumns.map((column) => metricCell(column, top))];
      subtotal.subtotal = true;
      yield subtotal;
    }
  }
  // Made as the writer takes them, a batch a turn.
  const rows = inTurnsOf(cells());
  const totalsRow = (): Cell[] => [...dimensions.map((_, i) => (i === 0 ? 'Total' : null)), ...metricColumns.map((column) => metricCell(column, totals))];
  return { title, ...(extras.workspace === undefined ? {} : { workspace: extras.workspace }), period: { name: result.period, start: result.start, end: result.end }, timeZone: result.timeZone, columns, rows, totals: totalsRow, chart: chartOf(result, metricColumns) };
}

/** Bars of the first dimension's rows, in the first of time, billable time, a money column or entries that the summary has. */
function chartOf(result: SummaryResult, metricColumns: ExportColumn[]): ExportTable['chart'] {
  const column =
    metricColumns.find((c) => c.key === 'time') ??
    metricColumns.find((c) => c.key === 'billableTime') ??
    metricColumns.find((c) => c.kind === 'money') ??
    metricColumns.find((c) => c.key === 'entries')!;
  const kind = column.kind === 'duration' ? 'duration' : column.kind === 'money' ? 'money' : 'count';
  const dimension = DIMENSION_LABELS[result.dimensions[0]];
  return {
    title: `${column.label}${column.currency ? ` (${column.currency})` : ''} by ${dimension.toLowerCase()}`,
    kind,
    ...(column.currency ? { currency: column.currency } : {}),
    bars: result.rows.map((row) => ({ label: row.label, value: Number(metricCell(column, row)) })),
  };
}

/** The calendar day the period starts on, in its zone: part of an export's file name. */
export const firstDayOf = (start: string, zone: string): string => wallClock(zone, start, start)(start).slice(0, 10);

/** The first and last calendar days of a period `[start, end)` in its zone: an export's file name. */
export function periodDaysOf(start: string, end: string, zone: string): PeriodDays {
  const last = new Date(Math.max(Date.parse(start), Date.parse(end) - 1)).toISOString();
  return { first: firstDayOf(start, zone), last: firstDayOf(last, zone) };
}
