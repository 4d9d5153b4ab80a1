import { rm } from 'node:fs/promises';
import { setImmediate as turn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { dialectOf, type Db } from '../../db/database.js';
import type { Workspace } from '../../domain/actor.js';
import { newId } from '../../lib/ids.js';
import { addImportedActivities } from '../activities/index.js';
import { addImportedClients } from '../clients/index.js';
import { addImportedProjects } from '../projects/index.js';
import { addImportedRates } from '../rates/index.js';
import { addImportedTags } from '../tags/index.js';
import { addImportedTasks } from '../tasks/index.js';
import { csvRecords, UnreadableFile } from './csv-file.js';
import { addImportedPeople } from './people.js';
import { countsOf, planImport, type Plan } from './plan.js';
import {
  deleteStagedEntries,
  findImportToRun,
  finishImport,
  importedKeys,
  noteProgress,
  NO_COUNTS,
  readDirectory,
  recordImportKeys,
  stageEntries,
  usersByName,
  type ImportOutcome,
} from './repository.js';
import { restoreOutcome } from './restore-run.js';
import { readRows, type ReadEntry, type ReadResult } from './rows.js';
import { readSolidtime } from './sources/solidtime.js';
import { openArchive, type Archive } from './archive.js';
import type { ImportProblem } from './schemas.js';
import { CSV_LAYOUTS, type CsvSource } from './sources/columns.js';

/** What a run needs beyond its import's row: the store, the settings, and who started it where. */
export interface RunContext {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  workspace: Workspace;
  inviter: { userId: string; email: string };
}

/** Errors an import keeps (errorCount counts them all). */
const KEPT_ERRORS = 1000;
/**
 * Entries staged per statement: on SQLite a short write, after which the event loop takes other
 * requests (the statement runs on the event loop's thread); on PostgreSQL fewer, larger statements,
 * each its own commit (13 values an entry, within the bound on parameters).
 */
const STAGE_CHUNK = { sqlite: 50, postgres: 2000 } as const;
/** How often a running import tells the others it is alive. */
export const HEARTBEAT_MS = 2000;

class Interrupted extends Error {}

const failed = (rows: number, errors: ImportProblem[], errorCount = errors.length, warnings: ImportProblem[] = []): ImportOutcome => ({
  status: 'failed',
  rows,
  created: NO_COUNTS,
  skipped: 0,
  errorCount,
  errors: errors.slice(0, KEPT_ERRORS),
  warnings,
});

/**
 * Runs one import to its end (docs/rules.md §6 Imports): reads the file, checks every row, plans what
 * to create, stages the entries in short transactions and applies everything in ONE transaction, which
 * also marks the import succeeded: a run stopped anywhere before that commit leaves the workspace as it
 * was. Never throws: whatever goes wrong ends the import as failed.
 */
export async function runImport(context: RunContext, importId: string, filePath: string, signal: AbortSignal): Promise<void> {
  const { db, log } = context;
  const heartbeat = setInterval(() => void noteProgress(db, importId, {}).catch(() => undefined), HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const outcome = await importOutcome(context, importId, filePath, signal);
    if (outcome) await finishImport(db, importId, outcome);
  } catch (error) {
    const interrupted = error instanceof Interrupted;
    if (!interrupted) log.error({ err: error, importId }, 'import failed');
    const problem: ImportProblem = interrupted
      ? { row: 0, column: null, code: 'interrupted', message: 'The server stopped during the import: nothing of it was applied. Run it again.' }
      : { row: 0, column: null, code: 'workspace-changed', message: 'The workspace changed while the import ran (or the store refused it): nothing of it was applied. Run it again.' };
    await finishImport(db, importId, failed(0, [problem])).catch((finishError: unknown) => log.error({ err: finishError, importId }, 'import could not be marked failed'));
  } finally {
    clearInterval(heartbeat);
    await deleteStagedEntries(db, importId).catch(() => undefined);
    await rm(filePath, { force: true });
  }
}

/** The import's outcome; undefined when the applying transaction has ended it already. */
async function importOutcome(context: RunContext, importId: string, filePath: string, signal: AbortSignal): Promise<ImportOutcome | undefined> {
  const { db } = context;
  const found = await findImportToRun(db, importId);
  if (!found) return undefined;
  const { organizationId, source, options, dryRun, mode } = found;
  const check = () => {
    if (signal.aborted) throw new Interrupted();
  };
  await noteProgress(db, importId, { status: 'running' });
  const started = performance.now();
  if (source === 'timetrack') return restoreOutcome(context, { importId, organizationId, dryRun }, filePath);

  let read: ReadResult;
  const progress = async (counts: { rows?: number; rowsDone?: number }) => {
    check();
    await noteProgress(db, importId, counts);
  };
  try {
    read =
      source === 'solidtime'
        ? await readArchive(filePath, (archive) => readSolidtime(archive, progress))
        : await readRows(CSV_LAYOUTS[source as CsvSource], () => csvRecords(filePath), options, { byName: await usersByName(db, organizationId) }, progress);
  } catch (error) {
    if (!(error instanceof UnreadableFile)) throw error;
    return failed(0, [{ row: error.line, column: null, code: 'file-unreadable', message: error.message }]);
  }
  check();
  const { rows } = read;
  await noteProgress(db, importId, { rowsDone: rows });
  if (read.fatal.length > 0) return failed(rows, read.fatal);
  if (mode === 'all' && read.errors.length > 0) return failed(rows, read.errors);
  check();

  const { fresh, skipped } = await withoutImported(db, organizationId, source, read.entries);
  const plan = planImport(fresh, await readDirectory(db, organizationId), newId);
  const outcome: ImportOutcome = {
    status: 'succeeded',
    rows,
    created: countsOf(plan),
    skipped,
    errorCount: read.errors.length,
    errors: read.errors.slice(0, KEPT_ERRORS),
    warnings: plan.warnings.slice(0, KEPT_ERRORS),
    period: periodOf(plan.entries),
  };
  if (dryRun) return outcome;

  const planned = performance.now();
  const chunk = STAGE_CHUNK[dialectOf(db)];
  for (let i = 0; i < plan.entries.length; i += chunk) {
    check();
    await stageEntries(db, organizationId, importId, plan.entries.slice(i, i + chunk), i);
    await turn();
  }
  check();
  const staged = performance.now();
  await apply(context, { importId, organizationId, source, invite: options.invite }, plan, outcome);
  context.log.info(
    { importId, rows, readAndPlanMs: Math.round(planned - started), stageMs: Math.round(staged - planned), applyMs: Math.round(performance.now() - staged) },
    'import applied',
  );
  return undefined;
}

/** Reads a ZIP file with `read`, and closes it. */
async function readArchive(filePath: string, read: (archive: Archive) => Promise<ReadResult>): Promise<ReadResult> {
  const archive = await openArchive(filePath);
  try {
    return await read(archive);
  } finally {
    archive.close();
  }
}

/** The entries whose rows no import of this source brought before, nor an earlier row of this file. */
async function withoutImported(db: Db, organizationId: string, source: Parameters<typeof importedKeys>[2], entries: readonly ReadEntry[]) {
  const imported = await importedKeys(db, organizationId, source, entries.map((entry) => entry.key));
  const fresh: ReadEntry[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (imported.has(entry.key) || seen.has(entry.key)) continue;
    seen.add(entry.key);
    fresh.push(entry);
  }
  return { fresh, skipped: entries.length - fresh.length };
}

/** From the first entry's start to the last one's end; undefined for none. */
export function periodOf(entries: Iterable<{ startedAt: string; endedAt: string }>): { start: string; end: string } | undefined {
  let period: { start: string; end: string } | undefined;
  for (const { startedAt, endedAt } of entries) {
    if (period === undefined) period = { start: startedAt, end: endedAt };
    else {
      if (startedAt < period.start) period.start = startedAt;
      if (endedAt > period.end) period.end = endedAt;
    }
  }
  return period;
}

/** The longest entry of each user: the look-back of their listings. */
function longestOfEachUser(plan: Plan) {
  const longest = new Map<string, { userId: string; startedAt: string; endedAt: string; ms: number }>();
  for (const entry of plan.entries) {
    const ms = Date.parse(entry.endedAt) - Date.parse(entry.startedAt);
    if ((longest.get(entry.userId)?.ms ?? -1) < ms) longest.set(entry.userId, { userId: entry.userId, startedAt: entry.startedAt, endedAt: entry.endedAt, ms });
  }
  return [...longest.values()];
}

/** Everything the plan creates, and the end of the import, in one transaction. */
async function apply(
  context: RunContext,
  run: { importId: string; organizationId: string; source: Parameters<typeof recordImportKeys>[2]; invite: boolean },
  plan: Plan,
  outcome: ImportOutcome,
): Promise<void> {
  const { db, config, workspace, inviter } = context;
  const { importId, organizationId } = run;
  await db.transaction().execute(async (trx) => {
    await addImportedPeople(trx, { workspace, config, users: plan.users, invite: run.invite });
    await addImportedClients(trx, organizationId, plan.clients);
    await addImportedProjects(trx, organizationId, { projects: plan.projects, members: plan.members, assignedBy: inviter.userId });
    await addImportedTasks(trx, organizationId, plan.tasks);
    await addImportedTags(trx, organizationId, plan.tags);
    await addImportedRates(trx, organizationId, { revenue: plan.revenueRates, cost: plan.costRates });
    await addImportedActivities(trx, organizationId, importId, longestOfEachUser(plan));
    await recordImportKeys(trx, organizationId, run.source, importId);
    // The staged entries are dropped after the commit (runImport's end), outside this transaction.
    // Another instance took it for stalled and marked it failed: nothing of it may count.
    if (!(await finishImport(trx, importId, outcome))) throw new Error('the import was marked failed while it ran');
  });
}
