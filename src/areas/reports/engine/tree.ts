import { ApiError } from '../../../domain/errors.js';
import type { DIMENSIONS, METRICS } from '../schemas.js';
import { isTimeDimension } from './buckets.js';
import { addMinor, amountsJson, ExactAmounts, type MinorAmounts } from './money.js';
import type { SummaryGroup } from './selection.js';

export type Dimension = (typeof DIMENSIONS)[number];
export type Metric = (typeof METRICS)[number];
type Key = string | null;

/** One row of a summary as answered (docs/rules.md §6 Reports, "Shape"). */
export interface SummaryRow {
  key: Key;
  label: string;
  entries: number;
  time?: number;
  billableTime?: number;
  revenue?: Record<string, number>;
  cost?: Record<string, number>;
  profit?: Record<string, number>;
  unpricedBillableTime?: number;
  uncostedTime?: number;
  revenueWithheldTime?: number;
  rows?: SummaryRow[];
}

export type SummaryTotals = Omit<SummaryRow, 'key' | 'label' | 'rows'>;

/** How the tree names keys and which keys it fills in (built by summary.ts from the workspace's directory). */
export interface TreeContext {
  dimensions: readonly Dimension[];
  metrics: readonly Metric[];
  /** Whether rows carry revenueWithheldTime: the caller reads revenue of some projects only. */
  partialRevenue: boolean;
  label(dimension: Dimension, key: Key): string;
  /** Every key of the dimension to show under the path of keys above it (filling empty rows), or null: no filling. */
  domain: ((dimension: Dimension, path: ReadonlyMap<Dimension, Key>) => Key[]) | null;
  /** Where a group's entries go at each dimension. */
  keyOf(group: SummaryGroup, dimension: Dimension): Key;
}

/** The most rows a filled summary may have (422 beyond). */
export const MAX_ROWS = 100_000;

interface Sums {
  entries: number;
  time: number;
  billableTime: number;
  unpriced: number;
  uncosted: number;
  withheld: number;
}

interface Node {
  key: Key;
  sums: Sums;
  revenue: ExactAmounts;
  cost: ExactAmounts;
  children: Map<string, Node> | null;
}

const zero = (): Sums => ({ entries: 0, time: 0, billableTime: 0, unpriced: 0, uncosted: 0, withheld: 0 });
const newNode = (key: Key, leaf: boolean): Node => ({ key, sums: zero(), revenue: new ExactAmounts(), cost: new ExactAmounts(), children: leaf ? null : new Map() });
const mapKey = (key: Key) => (key === null ? '' : `k${key}`);

function addSums(into: Sums, sums: Sums): void {
  into.entries += sums.entries;
  into.time += sums.time;
  into.billableTime += sums.billableTime;
  into.unpriced += sums.unpriced;
  into.uncosted += sums.uncosted;
  into.withheld += sums.withheld;
}

/**
 * A group's contribution (docs/rules.md §6 Reports, "Money"): billable time earns revenue at its
 * member's revenue rate (none in force: unpriced billable time; on a project whose revenue the caller
 * may not read: withheld), all time costs the user's cost rate (none in force: uncosted time).
 */
function addGroup(node: Node, group: SummaryGroup, metrics: readonly Metric[]): void {
  node.sums.entries += group.entries;
  node.sums.time += group.time;
  node.sums.billableTime += group.billableTime;
  if (metrics.includes('revenue') || metrics.includes('profit')) {
    if (!group.revenueReadable) node.sums.withheld += group.billableTime;
    else if (group.revenueRate === null) node.sums.unpriced += group.billableTime;
    else if (group.billableEntries > 0) node.revenue.addTime(group.revenueRate.currency, group.billableTime, group.revenueRate.value);
  }
  if (metrics.includes('cost') || metrics.includes('profit')) {
    if (group.costRate === null) node.sums.uncosted += group.time;
    else node.cost.addTime(group.costRate.currency, group.time, group.costRate.value);
  }
}

/** A finished row's rounded amounts, for its parent to add up. */
interface Finished {
  row: SummaryRow;
  sums: Sums;
  revenue: MinorAmounts;
  cost: MinorAmounts;
}

/**
 * The rows of a summary, a tree following the dimensions, and their totals. Leaf rows round their
 * exact sums once; every parent row and the totals add up their children's rounded amounts.
 */
export function buildTree(groups: readonly SummaryGroup[], context: TreeContext): { rows: SummaryRow[]; totals: SummaryTotals } {
  const { dimensions } = context;
  const root = newNode(null, false);
  for (const group of groups) {
    let node = root;
    dimensions.forEach((dimension, depth) => {
      const key = context.keyOf(group, dimension);
      let child = node.children!.get(mapKey(key));
      if (child === undefined) node.children!.set(mapKey(key), (child = newNode(key, depth === dimensions.length - 1)));
      node = child;
    });
    addGroup(node, group, context.metrics);
  }
  if (context.domain !== null) fill(root, context, 0, new Map(), { rows: 0 });
  const top = finishChildren(root, context, 0);
  const totals = finished(zero(), new Map(), new Map(), top, context);
  return { rows: top.map((child) => child.row), totals: totalsOf(totals.row) };
}

/** Adds the empty rows of every key of each dimension's domain under each row (hideEmptyRows false). */
function fill(node: Node, context: TreeContext, depth: number, path: Map<Dimension, Key>, counted: { rows: number }): void {
  const dimension = context.dimensions[depth];
  for (const key of context.domain!(dimension, path)) {
    if (!node.children!.has(mapKey(key))) node.children!.set(mapKey(key), newNode(key, depth === context.dimensions.length - 1));
  }
  counted.rows += node.children!.size;
  if (counted.rows > MAX_ROWS) {
    throw new ApiError(
      'validation',
      `Filling empty rows (hideEmptyRows false) would answer more than ${MAX_ROWS} rows: hide empty rows, narrow the period or the selection, or group by fewer dimensions.`,
    );
  }
  if (depth + 1 === context.dimensions.length) return;
  for (const child of node.children!.values()) {
    path.set(dimension, child.key);
    fill(child, context, depth + 1, path, counted);
    path.delete(dimension);
  }
}

function finishChildren(node: Node, context: TreeContext, depth: number): Finished[] {
  const dimension = context.dimensions[depth];
  const children = [...node.children!.values()].sort((a, b) => compareKeys(dimension, a.key, b.key, context));
  return children.map((child) => {
    if (child.children === null) return finished(child.sums, child.revenue.rounded(), child.cost.rounded(), null, context, child.key, dimension);
    const below = finishChildren(child, context, depth + 1);
    const sums = zero();
    const revenue: MinorAmounts = new Map();
    const cost: MinorAmounts = new Map();
    for (const item of below) {
      addSums(sums, item.sums);
      addMinor(revenue, item.revenue);
      addMinor(cost, item.cost);
    }
    return finished(sums, revenue, cost, below, context, child.key, dimension);
  });
}

/** A row (or, without a dimension, the totals) from its sums and rounded amounts, with the asked metrics only. */
function finished(
  sums: Sums,
  revenue: MinorAmounts,
  cost: MinorAmounts,
  below: Finished[] | null,
  context: TreeContext,
  key: Key = null,
  dimension?: Dimension,
): Finished {
  if (dimension === undefined && below !== null) {
    // The totals: the sums of the top rows.
    for (const item of below) {
      addSums(sums, item.sums);
      addMinor(revenue, item.revenue);
      addMinor(cost, item.cost);
    }
  }
  const { metrics } = context;
  const row: SummaryRow = { key, label: dimension === undefined ? '' : context.label(dimension, key), entries: sums.entries };
  if (metrics.includes('time')) row.time = sums.time;
  if (metrics.includes('billableTime')) row.billableTime = sums.billableTime;
  if (metrics.includes('revenue')) row.revenue = amountsJson(revenue);
  if (metrics.includes('cost')) row.cost = amountsJson(cost);
  if (metrics.includes('profit')) {
    const profit: MinorAmounts = new Map();
    addMinor(profit, revenue);
    addMinor(profit, cost, -1n);
    row.profit = amountsJson(profit);
  }
  if (metrics.includes('revenue') || metrics.includes('profit')) row.unpricedBillableTime = sums.unpriced;
  if (metrics.includes('cost') || metrics.includes('profit')) row.uncostedTime = sums.uncosted;
  if (context.partialRevenue) row.revenueWithheldTime = sums.withheld;
  if (dimension !== undefined && below !== null) row.rows = below.map((item) => item.row);
  return { row, sums, revenue, cost };
}

function totalsOf(row: SummaryRow): SummaryTotals {
  const { key: _key, label: _label, rows: _rows, ...totals } = row;
  return totals;
}

/**
 * The order of rows (docs/rules.md §6 Reports): days, weeks and months in time order; projects, users
 * and members by label without regard to case, then label, then id; "no project" and "no member" last.
 */
function compareKeys(dimension: Dimension, a: Key, b: Key, context: TreeContext): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (isTimeDimension(dimension)) return a < b ? -1 : 1;
  const labelA = context.label(dimension, a);
  const labelB = context.label(dimension, b);
  const foldedA = labelA.toLowerCase();
  const foldedB = labelB.toLowerCase();
  if (foldedA !== foldedB) return foldedA < foldedB ? -1 : 1;
  if (labelA !== labelB) return labelA < labelB ? -1 : 1;
  return a < b ? -1 : 1;
}
