import { ApiError } from '../../../domain/errors.js';
import type { DIMENSIONS, METRICS } from '../schemas.js';
import { isTimeDimension } from './buckets.js';
import { addMinor, amountsJson, ExactAmounts, type MinorAmounts } from './money.js';
import type { GroupSums, SummaryGroup } from './selection.js';

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
  /**
   * Grouped by tag: the depth of the rows that count each entry once, from the groups' `once` sums,
   * whatever the rows below them add up to (-1: the totals); null when nothing is grouped by tag.
   */
  onceDepth: number | null;
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

/** Exact sums, before rounding. */
interface Exact {
  sums: Sums;
  revenue: ExactAmounts;
  cost: ExactAmounts;
}

interface Node extends Exact {
  key: Key;
  children: Map<string, Node> | null;
  /** An empty row that filling added at the last dimension: its sums and amounts are the shared zeros. */
  filled?: true;
  /** At the context's onceDepth: the row's own sums, each entry once (see TreeContext.onceDepth). */
  once?: Exact;
}

const zero = (): Sums => ({ entries: 0, time: 0, billableTime: 0, unpriced: 0, uncosted: 0, withheld: 0 });
const exact = (): Exact => ({ sums: zero(), revenue: new ExactAmounts(), cost: new ExactAmounts() });
const newNode = (key: Key, leaf: boolean): Node => ({ key, ...exact(), children: leaf ? null : new Map() });
const mapKey = (key: Key) => (key === null ? '' : `k${key}`);

/**
 * The zeros every filled leaf shares (a filled answer is mostly such rows: sharing them keeps the
 * filling cheap). Nothing adds to a leaf once filling starts, and a row's sums are only read after.
 */
const NO_SUMS: Sums = Object.freeze(zero());
const NO_EXACT = new ExactAmounts();
const NO_AMOUNTS: MinorAmounts = new Map();
const filledLeaf = (key: Key): Node => ({ key, sums: NO_SUMS, revenue: NO_EXACT, cost: NO_EXACT, children: null, filled: true });

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
function addGroup(node: Exact, group: SummaryGroup, sums: GroupSums, metrics: readonly Metric[]): void {
  node.sums.entries += sums.entries;
  node.sums.time += sums.time;
  node.sums.billableTime += sums.billableTime;
  if (metrics.includes('revenue') || metrics.includes('profit')) {
    if (!group.revenueReadable) node.sums.withheld += sums.billableTime;
    else if (group.revenueRate === null) node.sums.unpriced += sums.billableTime;
    else if (sums.billableEntries > 0) node.revenue.addTime(group.revenueRate.currency, sums.billableTime, group.revenueRate.value);
  }
  // A group's `once` part may hold none of its entries (they count under another of their tags).
  if ((metrics.includes('cost') || metrics.includes('profit')) && sums.entries > 0) {
    if (group.costRate === null) node.sums.uncosted += sums.time;
    else node.cost.addTime(group.costRate.currency, sums.time, group.costRate.value);
  }
}

/** Adds the group's `once` sums to the node at the context's onceDepth. */
function addOnce(node: Node, group: SummaryGroup, metrics: readonly Metric[]): void {
  node.once ??= exact();
  addGroup(node.once, group, group.once!, metrics);
}

/** A finished row's rounded amounts, for its parent to add up. */
interface Finished {
  row: SummaryRow;
  sums: Sums;
  revenue: MinorAmounts;
  cost: MinorAmounts;
}

/** The rows of a summary and their totals. */
export interface SummaryTree {
  rows: SummaryRow[];
  totals: SummaryTotals;
}

/** Work (groups added, rows filled or finished) done between two pauses of the tree's steps. */
const WORK_BETWEEN_PAUSES = 1024;

/** Counts work and says when the steps should pause; shared by the recursion of one build. */
interface Pacer {
  work: number;
}
const due = (pacer: Pacer): boolean => ++pacer.work % WORK_BETWEEN_PAUSES === 0;

/**
 * The rows of a summary, a tree following the dimensions, and their totals. Leaf rows round their
 * exact sums once; every parent row and the totals add up their children's rounded amounts.
 *
 * The build is a generator that pauses (yields) after every WORK_BETWEEN_PAUSES groups or rows, so
 * that a caller can give other work its turn between steps (lib/turns.ts `inTurns`) while the engine
 * stays pure calculation: the largest filled answer is 100,000 rows.
 */
export function* treeSteps(groups: readonly SummaryGroup[], context: TreeContext): Generator<void, SummaryTree> {
  const { dimensions } = context;
  const { onceDepth } = context;
  const pacer: Pacer = { work: 0 };
  const root = newNode(null, false);
  for (const group of groups) {
    let node = root;
    if (onceDepth === -1) addOnce(root, group, context.metrics);
    dimensions.forEach((dimension, depth) => {
      const key = context.keyOf(group, dimension);
      let child = node.children!.get(mapKey(key));
      if (child === undefined) node.children!.set(mapKey(key), (child = newNode(key, depth === dimensions.length - 1)));
      node = child;
      if (depth === onceDepth) addOnce(node, group, context.metrics);
    });
    addGroup(node, group, group, context.metrics);
    if (due(pacer)) yield;
  }
  if (context.domain !== null) yield* fill(root, context, 0, new Map(), { rows: 0 }, pacer);
  const top = yield* finishChildren(root, context, 0, pacer);
  const totals = onceDepth === -1 ? finishedOnce(root, null, context) : finished(zero(), new Map(), new Map(), top, context);
  return { rows: top.map((child) => child.row), totals: totalsOf(totals.row) };
}

/** A row (or the totals) from its own sums, each entry once, rounded once; `below` are its rows, summed apart. */
function finishedOnce(node: Node, below: Finished[] | null, context: TreeContext, dimension?: Dimension): Finished {
  const once = node.once ?? exact();
  const done = finished(once.sums, once.revenue.rounded(), once.cost.rounded(), null, context, node.key, dimension);
  if (dimension !== undefined && below !== null) done.row.rows = below.map((item) => item.row);
  return done;
}

const tooManyRows = () =>
  new ApiError(
    'validation',
    `Filling empty rows (hideEmptyRows false) would answer more than ${MAX_ROWS} rows: hide empty rows, narrow the period or the selection, or group by fewer dimensions.`,
  );

/**
 * 422 when the empty rows alone (the domain's, before any entry is read) are more than MAX_ROWS:
 * every one of them is in the answer, so the run is refused before its entries are read and grouped.
 */
export function assertFillable(context: TreeContext): void {
  const { dimensions, domain } = context;
  if (domain === null) return;
  let rows = 0;
  const count = (depth: number, path: Map<Dimension, Key>): void => {
    const dimension = dimensions[depth];
    const keys = domain(dimension, path);
    rows += keys.length;
    if (rows > MAX_ROWS) throw tooManyRows();
    if (depth + 1 === dimensions.length) return;
    for (const key of keys) {
      path.set(dimension, key);
      count(depth + 1, path);
      path.delete(dimension);
    }
  };
  count(0, new Map());
}

/** Adds the empty rows of every key of each dimension's domain under each row (hideEmptyRows false). */
function* fill(node: Node, context: TreeContext, depth: number, path: Map<Dimension, Key>, counted: { rows: number }, pacer: Pacer): Generator<void, void> {
  const dimension = context.dimensions[depth];
  const leaf = depth === context.dimensions.length - 1;
  for (const key of context.domain!(dimension, path)) {
    if (!node.children!.has(mapKey(key))) node.children!.set(mapKey(key), leaf ? filledLeaf(key) : newNode(key, false));
    if (due(pacer)) yield;
  }
  counted.rows += node.children!.size;
  if (counted.rows > MAX_ROWS) throw tooManyRows();
  if (leaf) return;
  for (const child of node.children!.values()) {
    path.set(dimension, child.key);
    yield* fill(child, context, depth + 1, path, counted, pacer);
    path.delete(dimension);
  }
}

function* finishChildren(node: Node, context: TreeContext, depth: number, pacer: Pacer): Generator<void, Finished[]> {
  const dimension = context.dimensions[depth];
  const children = sortedChildren(node, dimension, context);
  const done: Finished[] = [];
  for (const child of children) {
    if (due(pacer)) yield;
    if (child.filled) {
      done.push(finished(NO_SUMS, NO_AMOUNTS, NO_AMOUNTS, null, context, child.key, dimension));
      continue;
    }
    if (child.children === null) {
      done.push(finished(child.sums, child.revenue.rounded(), child.cost.rounded(), null, context, child.key, dimension));
      continue;
    }
    const below = yield* finishChildren(child, context, depth + 1, pacer);
    if (depth === context.onceDepth) {
      done.push(finishedOnce(child, below, context, dimension));
      continue;
    }
    const sums = zero();
    const revenue: MinorAmounts = new Map();
    const cost: MinorAmounts = new Map();
    for (const item of below) {
      addSums(sums, item.sums);
      addMinor(revenue, item.revenue);
      addMinor(cost, item.cost);
    }
    done.push(finished(sums, revenue, cost, below, context, child.key, dimension));
  }
  return done;
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
 * Each row's label is looked up and folded once, not at every comparison.
 */
function sortedChildren(node: Node, dimension: Dimension, context: TreeContext): Node[] {
  const children = [...node.children!.values()];
  if (isTimeDimension(dimension)) return children.sort((a, b) => compareKeys(a.key, b.key));
  const ordered = children.map((child) => {
    const label = child.key === null ? '' : context.label(dimension, child.key);
    return { child, label, folded: label.toLowerCase() };
  });
  ordered.sort((a, b) => {
    if (a.child.key === null || b.child.key === null) return compareKeys(a.child.key, b.child.key);
    if (a.folded !== b.folded) return a.folded < b.folded ? -1 : 1;
    if (a.label !== b.label) return a.label < b.label ? -1 : 1;
    return compareKeys(a.child.key, b.child.key);
  });
  return ordered.map((item) => item.child);
}

/** Keys in their own order, none last. */
function compareKeys(a: Key, b: Key): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
