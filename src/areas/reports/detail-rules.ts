import { minorUnitsOf } from '../../lib/currencies.js';
import type { DetailedEntry } from './detail-schemas.js';
import { offsetSegments } from './engine/buckets.js';
import { decimalOf } from './engine/money.js';
import type { ReportEntry } from './engine/selection.js';
import type { Cell, ExportColumn } from './exports/table.js';

/*
 * The detailed report's rules (docs/rules.md §6 Detailed report): what an entry shows,
 * its money, and its row in an export. Amounts are rounded per entry, to the currency's minor unit
 * (half away from zero), and the totals of an export are the sums of its rows.
 */

/** Which money the caller sees: revenue when asked for and readable (per entry), cost when asked for (administrators only). */
export interface MoneyShown {
  revenue: boolean;
  cost: boolean;
}

/** The names entries carry, from the workspace's directory. */
export interface Names {
  user(userId: string): string;
  project(projectId: string): string;
  /** The project's client (null: none). */
  clientOf(projectId: string): { id: string; name: string } | null;
  tag(tagId: string): string;
}

const tagsOf = (entry: ReportEntry, names: Names) => entry.tagIds.map((id) => ({ id, name: names.tag(id) }));

/** An amount of `seconds` at `value` an hour, in minor units of the currency, rounded half away from zero (values are never negative). */
export function minorAmount(seconds: number, value: number, currency: string): number {
  const { numerator, divisor, small } = rateTerms(value, currency);
  if (small !== undefined && seconds <= MAX_EXACT_SECONDS) {
    // Safe integers (see MAX_EXACT_SECONDS): the floating quotient is off by at most one, corrected here.
    const top = 2 * seconds * small.numerator + small.divisor;
    const bottom = 2 * small.divisor;
    let quotient = Math.floor(top / bottom);
    if (quotient * bottom > top) quotient--;
    else if ((quotient + 1) * bottom <= top) quotient++;
    return quotient;
  }
  return Number((2n * BigInt(seconds) * numerator + divisor) / (2n * divisor));
}

/** A rate's exact terms per currency, kept: an export applies the same few rates to every entry. */
interface RateTerms {
  numerator: bigint;
  divisor: bigint;
  /** The same as numbers, when both are small enough for an entry of up to MAX_EXACT_SECONDS. */
  small?: { numerator: number; divisor: number };
}
const TERMS = new Map<string, RateTerms>();
const MAX_TERMS = 10_000;
/**
 * Bounds under which an amount is computed in numbers, exactly: seconds < 2^25 (over a year),
 * numerator < 2^26 and divisor < 2^40 keep 2·seconds·numerator + 2·divisor below 2^53. Longer
 * entries and finer rates take the bigint path.
 */
const MAX_EXACT_SECONDS = 2 ** 25 - 1;
const MAX_SMALL_NUMERATOR = 2n ** 26n;
const MAX_SMALL_DIVISOR = 2n ** 40n;

function rateTerms(value: number, currency: string): RateTerms {
  const key = `${currency} ${value}`;
  let terms = TERMS.get(key);
  if (terms === undefined) {
    const rate = decimalOf(value);
    const numerator = rate.numerator * 10n ** BigInt(minorUnitsOf(currency));
    const divisor = 3600n * rate.denominator;
    terms = { numerator, divisor };
    if (numerator < MAX_SMALL_NUMERATOR && divisor < MAX_SMALL_DIVISOR) terms.small = { numerator: Number(numerator), divisor: Number(divisor) };
    if (TERMS.size >= MAX_TERMS) TERMS.clear();
    TERMS.set(key, terms);
  }
  return terms;
}

export const majorOf = (minor: number, currency: string): number => minor / 10 ** minorUnitsOf(currency);

/** The revenue of an entry in minor units: billable time at its member's rate; none without a rate or when not billable. */
const revenueMinor = (entry: ReportEntry) =>
  entry.billable && entry.revenueRate ? minorAmount(entry.roundedDuration, entry.revenueRate.value, entry.revenueRate.currency) : null;

const costMinor = (entry: ReportEntry) => (entry.costRate ? minorAmount(entry.roundedDuration, entry.costRate.value, entry.costRate.currency) : null);

const rateJson = (rate: ReportEntry['revenueRate']) => (rate ? { currency: rate.currency, value: rate.value } : null);

const amountJson = (minor: number | null, rate: ReportEntry['revenueRate']) =>
  minor === null || rate === null ? {} : { [rate.currency]: majorOf(minor, rate.currency) };

/** An entry as the JSON of a detailed report shows it to this caller. */
export function detailedEntry(entry: ReportEntry, names: Names, money: MoneyShown): DetailedEntry {
  const out: DetailedEntry = {
    id: entry.id,
    name: entry.name,
    startedAt: entry.startedAt,
    endedAt: entry.endedAt,
    billable: entry.billable,
    user: { id: entry.userId, name: names.user(entry.userId) },
    project: entry.projectId === null ? null : { id: entry.projectId, name: names.project(entry.projectId) },
    client: entry.projectId === null ? null : names.clientOf(entry.projectId),
    task: entry.task,
    tags: tagsOf(entry, names),
    duration: entry.roundedDuration,
    rawDuration: entry.duration,
  };
  if (money.revenue && entry.revenueReadable) {
    out.revenueRate = rateJson(entry.revenueRate);
    out.revenue = amountJson(revenueMinor(entry), entry.revenueRate);
  }
  if (money.cost) {
    out.costRate = rateJson(entry.costRate);
    out.cost = amountJson(costMinor(entry), entry.costRate);
  }
  return out;
}

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Wall-clock times of instants in a zone, over a period: each instant takes the offset of its own side of a DST change. */
export function wallClock(zone: string, start: string, end: string): (instant: string) => string {
  const segments = offsetSegments(zone, Date.parse(start), Date.parse(end) + 32 * 86_400_000);
  // UTC and zones without an offset in the period: the stored instant's own first 19 characters.
  if (segments.length === 1 && segments[0].offsetSeconds === 0) return (instant) => (CANONICAL.test(instant) ? instant.slice(0, 19) : new Date(instant).toISOString().slice(0, 19));
  return (instant) => {
    const ms = Date.parse(instant);
    let offset = segments[0].offsetSeconds;
    for (let i = segments.length - 1; i > 0; i--) {
      if (ms >= segments[i].from) {
        offset = segments[i].offsetSeconds;
        break;
      }
    }
    return new Date(ms + offset * 1000).toISOString().slice(0, 19);
  };
}

/** A column's label: the report's override for its key when overrides are enabled, else its own. */
export type Labeller = (key: string, label: string) => string;

/** The detailed report's columns: one rate and one amount column per currency of the rates in the period. */
export function detailColumns(label: Labeller, currencies: { revenue: string[] | null; cost: string[] | null }): ExportColumn[] {
  const column = (key: string, own: string, kind: ExportColumn['kind'], currency?: string): ExportColumn => ({
    key,
    label: label(key, own),
    kind,
    ...(currency ? { currency } : {}),
  });
  return [
    column('user', 'User', 'text'),
    column('client', 'Client', 'text'),
    column('project', 'Project', 'text'),
    column('task', 'Task', 'text'),
    column('name', 'Description', 'text'),
    column('tags', 'Tags', 'text'),
    column('billable', 'Billable', 'boolean'),
    column('date', 'Date', 'date'),
    column('startedAt', 'Start', 'dateTime'),
    column('endedAt', 'End', 'dateTime'),
    column('duration', 'Duration', 'duration'),
    column('rawDuration', 'Raw duration', 'duration'),
    ...(currencies.revenue ?? []).flatMap((currency) => [
      column('revenueRate', 'Revenue rate', 'rate', currency),
      column('revenue', 'Revenue', 'money', currency),
    ]),
    ...(currencies.cost ?? []).flatMap((currency) => [column('costRate', 'Cost rate', 'rate', currency), column('cost', 'Cost', 'money', currency)]),
  ];
}

/**
 * The rows of a detailed export and their totals: each entry's cells in the columns' order, its
 * amounts summed per currency as they are written (so the totals row is the sum of the rows).
 */
export function detailRowWriter(columns: ExportColumn[], names: Names, money: MoneyShown, local: (instant: string) => string) {
  /** Each money column's total in minor units, by the column's position. */
  const sums = columns.map(() => 0);
  let duration = 0;
  let rawDuration = 0;
  /** An amount written in a row, added to its column's total. */
  const counted = (column: number, currency: string, minor: number) => {
    sums[column] += minor;
    return majorOf(minor, currency);
  };
  /** One entry as a row reads it: the entry, its wall-clock start, its amounts in minor units. */
  interface Written {
    entry: ReportEntry;
    started: string;
    revenue: number | null;
    cost: number | null;
  }
  const cellOf = (column: ExportColumn, index: number): ((row: Written) => Cell) => {
    switch (column.key) {
      case 'user':
        return ({ entry }) => names.user(entry.userId);
      case 'project':
        return ({ entry }) => (entry.projectId === null ? null : names.project(entry.projectId));
      case 'client':
        return ({ entry }) => (entry.projectId === null ? null : (names.clientOf(entry.projectId)?.name ?? null));
      case 'task':
        return ({ entry }) => entry.task?.name ?? null;
      case 'name':
        return ({ entry }) => entry.name;
      case 'tags':
        // The names in the activity's order, as one cell: `Design, Urgent`.
        return ({ entry }) => (entry.tagIds.length === 0 ? null : entry.tagIds.map(names.tag).join(', '));
      case 'billable':
        return ({ entry }) => entry.billable;
      case 'date':
        return ({ started }) => started.slice(0, 10);
      case 'startedAt':
        return ({ started }) => started;
      case 'endedAt':
        return ({ entry }) => local(entry.endedAt);
      case 'duration':
        return ({ entry }) => entry.roundedDuration;
      case 'rawDuration':
        return ({ entry }) => entry.duration;
      case 'revenueRate':
        return ({ entry: { revenueReadable, revenueRate } }) =>
          money.revenue && revenueReadable && revenueRate !== null && revenueRate.currency === column.currency ? revenueRate.value : null;
      case 'revenue':
        return ({ entry: { revenueRate }, revenue }) =>
          revenue === null || revenueRate === null || revenueRate.currency !== column.currency ? null : counted(index, revenueRate.currency, revenue);
      case 'costRate':
        return ({ entry: { costRate } }) => (money.cost && costRate !== null && costRate.currency === column.currency ? costRate.value : null);
      case 'cost':
        return ({ entry: { costRate }, cost }) =>
          cost === null || costRate === null || costRate.currency !== column.currency ? null : counted(index, costRate.currency, cost);
      default:
        return () => null;
    }
  };
  const cells = columns.map(cellOf);
  const row = (entry: ReportEntry): Cell[] => {
    duration += entry.roundedDuration;
    rawDuration += entry.duration;
    const written: Written = {
      entry,
      started: local(entry.startedAt),
      revenue: money.revenue && entry.revenueReadable ? revenueMinor(entry) : null,
      cost: money.cost ? costMinor(entry) : null,
    };
    return cells.map((cell) => cell(written));
  };
  const totals = (): Cell[] =>
    columns.map((column, i): Cell => {
      if (i === 0) return 'Total';
      if (column.key === 'duration') return duration;
      if (column.key === 'rawDuration') return rawDuration;
      if (column.kind === 'money') return majorOf(sums[i], column.currency!);
      return null;
    });
  return { row, totals };
}
