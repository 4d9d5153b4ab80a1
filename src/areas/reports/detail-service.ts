import type { Db } from '../../db/database.js';
import { inPostgresSnapshot } from '../../db/long-reads.js';
import type { Actor } from '../../domain/actor.js';
import { invalid } from '../../domain/errors.js';
import { nextTurn } from '../../lib/turns.js';
import { cursorOf, keyOfCursor, type ListKey } from '../activities/index.js';
import { costCurrencies, revenueCurrencies } from './detail-repository.js';
import { detailColumns, detailedEntry, detailRowWriter, wallClock, type MoneyShown, type Names } from './detail-rules.js';
import { DEFAULT_DETAIL_PAGE, type DetailedReport, type DetailFormat, type DetailQuery } from './detail-schemas.js';
import { readDirectory } from './directory-repository.js';
import type { ReportEntry } from './engine/selection.js';
import { entryLookups, reportEntriesPage } from './entries-repository.js';
import { prepareReportRun, type ReportRun, type RunDefinition } from './run-preparation.js';
import { exportFileName } from './exports/disposition.js';
import type { ExportTable } from './exports/table.js';
import { labeller } from './exports/labels.js';
import { periodDaysOf } from './summary-table.js';

/** A detailed report's answer: a JSON page (with the cursor of the next one), or the whole report as a file. */
export type DetailAnswer =
  | { format: 'json'; page: DetailedReport; next?: string }
  | { format: Exclude<DetailFormat, 'json'>; table: ExportTable; fileName: string };

/** Entries read by one statement of an export: a long one reads piece after piece, each an index range after the last key. */
export const DETAIL_PIECE = 500;

/**
 * The detailed report of a definition (docs/rules.md §6 Detailed report): the entries the
 * summary counts, for this caller, as a JSON page or as a CSV or XLSX file of every entry.
 */
export async function detailedReport(db: Db, actor: Actor, definition: RunDefinition, name: string | undefined, query: DetailQuery): Promise<DetailAnswer> {
  const format = query.format ?? 'json';
  if (format !== 'json') {
    if (query.limit !== undefined) throw invalid('/query/limit', 'applies to format json only: a file holds every entry');
    if (query.cursor !== undefined) throw invalid('/query/cursor', 'applies to format json only: a file holds every entry');
  }
  const after = query.cursor === undefined ? undefined : keyOfCursor(query.cursor);
  if (query.cursor !== undefined && after === undefined) throw invalid('/query/cursor', 'is not a cursor of this report: use the link of a page');
  const run = await prepareReportRun(db, actor, definition, query.timeZone);
  const names = namesOf(await readDirectory(db, actor.organizationId, { members: false, clients: true, tasks: false, tags: true }));
  const money: MoneyShown = {
    revenue: run.spec.revenue !== null,
    cost: definition.metrics.includes('cost') || definition.metrics.includes('profit'),
  };
  if (format === 'json') return page(db, run, names, money, { after, limit: query.limit === undefined ? DEFAULT_DETAIL_PAGE : Number(query.limit) });
  const { organizationId, revenue } = run.spec;
  const currencies = {
    revenue: revenue === null ? null : await revenueCurrencies(db, organizationId, run.period, revenue),
    cost: money.cost ? await costCurrencies(db, organizationId, run.period) : null,
  };
  const columns = detailColumns(labeller(definition), currencies);
  const writer = detailRowWriter(columns, names, money, wallClock(run.timeZone, run.period.start, run.period.end));
  const table: ExportTable = {
    title: name ?? 'Detailed report',
    period: { name: definition.period, ...run.period },
    timeZone: run.timeZone,
    columns,
    rows: mapped(everyEntry(db, run), (entries) => entries.map(writer.row)),
    totals: writer.totals,
  };
  const days = periodDaysOf(run.period.start, run.period.end, run.timeZone);
  return { format, table, fileName: exportFileName(name, days, format, 'entries') };
}

function namesOf(directory: Awaited<ReturnType<typeof readDirectory>>): Names {
  return {
    user: (userId) => directory.users.get(userId)?.label ?? userId,
    project: (projectId) => directory.projects.get(projectId)?.name ?? projectId,
    clientOf: (projectId) => {
      const clientId = directory.projects.get(projectId)?.clientId ?? null;
      return clientId === null ? null : { id: clientId, name: directory.clients.get(clientId)?.name ?? clientId };
    },
    tag: (tagId) => directory.tags.get(tagId)?.name ?? tagId,
  };
}

async function page(db: Db, run: ReportRun, names: Names, money: MoneyShown, at: { after?: ListKey; limit: number }): Promise<DetailAnswer> {
  // One more than the page: a next page exists only when it does.
  const entries = await reportEntriesPage(db, fromKey(run, at.after), { after: at.after, limit: at.limit + 1 });
  const more = entries.length > at.limit;
  const shown = more ? entries.slice(0, at.limit) : entries;
  const last = shown[shown.length - 1];
  return {
    format: 'json',
    page: {
      period: run.definition.period,
      start: run.period.start,
      end: run.period.end,
      timeZone: run.timeZone,
      rounding: run.rounding,
      ignoredFilters: run.ignoredFilters,
      entries: shown.map((entry) => detailedEntry(entry, names, money)),
    },
    ...(more ? { next: cursorOf({ startedAt: last.startedAt, id: last.id }) } : {}),
  };
}

/**
 * The run's selection starting at the key's startedAt: the one lower bound of the index range, so a
 * later page reads from its key on instead of from the period's start (the planner takes one bound
 * of a range; given the period's, every page would read the entries of the pages before it again).
 */
function fromKey(run: ReportRun, after: ListKey | undefined): ReportRun['spec'] {
  if (after === undefined || after.startedAt <= run.spec.period.start) return run.spec;
  return { ...run.spec, period: { ...run.spec.period, start: after.startedAt } };
}

async function* mapped<T, U>(items: AsyncIterable<T>, map: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield map(item);
}

/**
 * Every entry of the run, in pieces (one statement's entries each) as the client takes the file:
 * on PostgreSQL from one snapshot of the long reads (db/long-reads.ts inPostgresSnapshot), held until
 * the last piece or until the answer is abandoned. SQLite, whose one connection serves every request,
 * reads each piece on its own: an entry changed while a long export is read may be missed or show its
 * new values.
 */
const everyEntry = (db: Db, run: ReportRun): AsyncGenerator<ReportEntry[]> => inPostgresSnapshot(db, (snapshot) => pieces(snapshot, run));

/**
 * The pieces one after another, each asked for as soon as the one before has arrived: on PostgreSQL
 * the next statement runs while this piece is written. Other requests are served between two pieces,
 * also when the client takes the file as fast as it comes.
 */
async function* pieces(db: Db, run: ReportRun): AsyncGenerator<ReportEntry[]> {
  const lookups = await entryLookups(db, run.spec);
  const read = (after?: ListKey) => reportEntriesPage(db, fromKey(run, after), { after, limit: DETAIL_PIECE, lookups });
  let next: Promise<ReportEntry[]> | undefined = read();
  try {
    while (next !== undefined) {
      const entries: ReportEntry[] = await next;
      const last = entries.length === DETAIL_PIECE ? entries[entries.length - 1] : undefined;
      next = last === undefined ? undefined : read({ startedAt: last.startedAt, id: last.id });
      if (entries.length > 0) yield entries;
      await nextTurn();
    }
  } finally {
    // An abandoned answer: the piece read ahead settles before its transaction ends, and its failure is nobody's.
    await next?.catch(() => undefined);
  }
}
