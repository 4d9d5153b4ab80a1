import type { Db } from '../../db/database.js';
import type { Actor } from '../../domain/actor.js';
import type { DetailQuery } from './detail-schemas.js';
import { detailedReport, type DetailAnswer } from './detail-service.js';
import { readDirectory } from './directory-repository.js';
import { assertSummaryFillable, fillsEmptyRows, planSummary, summarySteps, type SummaryResult } from './engine/summary.js';
import { prepareReportRun, type RunDefinition } from './run-preparation.js';
import { inTurns } from '../../lib/turns.js';
import { newReportFields } from './rules.js';
import type { FormattedRun } from './run-formats.js';
import { assertReferences, ownReport } from './saved-reports-service.js';
import type { ReportRunBody, ReportRunQuery } from './schemas.js';
import { summaryGroups } from './summary-repository.js';

/*
 * Running a report (docs/rules.md §6 Reports), one use case per route: the definition (an ad-hoc
 * body checked as POST /reports checks it, name optional, never saved; or one of the caller's saved
 * reports, another's 404), then the run: prepared (run-preparation.ts), read from the repositories,
 * and computed by the pure engine (engine/).
 */

/** What a run answers: the summary, the format to render it in, and what a file names and labels. */
export type RunOutput = FormattedRun;

/** A definition to run and its name: an ad-hoc body's (absent when it names none), or a saved report's. */
interface Named {
  name?: string;
  definition: RunDefinition;
}

async function adHocDefinition(db: Db, actor: Actor, body: ReportRunBody): Promise<Named> {
  const { name, definition } = newReportFields({ ...body, name: body.name ?? 'Report' });
  await assertReferences(db, actor.organizationId, body);
  return { ...(body.name === undefined ? {} : { name }), definition };
}

async function savedDefinition(db: Db, actor: Actor, reportId: string): Promise<Named> {
  const { id: _id, userId: _userId, name, pinned: _pinned, ...definition } = await ownReport(db, actor, reportId);
  return { name, definition };
}

/** The summary of a definition for the caller: the run, its plan (422s before anything is read), the groups and names, the tree. */
async function summaryOf(db: Db, actor: Actor, definition: RunDefinition, timeZone: string | undefined): Promise<{ result: SummaryResult; workspaceName: string }> {
  const run = await prepareReportRun(db, actor, definition, timeZone);
  const plan = planSummary(run);
  const directoryRead = readDirectory(db, run.spec.organizationId, plan.directory);
  // Too many empty rows to fill shows in the directory alone: refused before the entries are read.
  if (fillsEmptyRows(run)) assertSummaryFillable(run, plan, await directoryRead);
  const [groups, directory] = await Promise.all([summaryGroups(db, run.spec, plan), directoryRead]);
  // A filled answer is up to 100,000 rows: built in turns, so others' requests are served meanwhile.
  return { result: await inTurns(summarySteps(run, plan, { groups, directory })), workspaceName: run.workspaceName };
}

async function summaryRun(db: Db, actor: Actor, { name, definition }: Named, query: ReportRunQuery): Promise<RunOutput> {
  const { result, workspaceName } = await summaryOf(db, actor, definition, query.timeZone);
  // A file names the workspace it comes from (the PDF's title, the XLSX's About sheet).
  return { format: query.format ?? 'json', result, ...(name === undefined ? {} : { name }), workspace: workspaceName, overrides: definition };
}

export async function runAdHocReport(db: Db, actor: Actor, body: ReportRunBody, query: ReportRunQuery): Promise<RunOutput> {
  return summaryRun(db, actor, await adHocDefinition(db, actor, body), query);
}

export async function runSavedReport(db: Db, actor: Actor, reportId: string, query: ReportRunQuery): Promise<RunOutput> {
  return summaryRun(db, actor, await savedDefinition(db, actor, reportId), query);
}

/** The detailed report of an ad-hoc definition (docs/rules.md §6 Detailed report). */
export async function adHocDetailedReport(db: Db, actor: Actor, body: ReportRunBody, query: DetailQuery): Promise<DetailAnswer> {
  const { name, definition } = await adHocDefinition(db, actor, body);
  return detailedReport(db, actor, definition, name, query);
}

/** The detailed report of one of the caller's saved reports (docs/rules.md §6 Detailed report). */
export async function savedDetailedReport(db: Db, actor: Actor, reportId: string, query: DetailQuery): Promise<DetailAnswer> {
  const { name, definition } = await savedDefinition(db, actor, reportId);
  return detailedReport(db, actor, definition, name, query);
}
