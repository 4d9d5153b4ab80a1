import type { Db } from '../../db/database.js';
import type { Actor } from '../../domain/actor.js';
import { prepareReportRun, type RunDefinition } from './engine/run.js';
import { runSummary, type SummaryResult } from './engine/summary.js';
import { newReportFields } from './rules.js';
import { assertFormatAvailable, type ReportFormat } from './run-formats.js';
import type { ReportRunBody, ReportRunQuery } from './schemas.js';
import { assertReferences, ownReport } from './service.js';

/** What a run answers: the summary and the format to render it in. */
export interface RunOutput {
  format: ReportFormat;
  result: SummaryResult;
}

/** Runs an ad-hoc definition: checked exactly as POST /reports checks it (name optional), never saved. */
export async function runAdHocReport(db: Db, actor: Actor, body: ReportRunBody, query: ReportRunQuery): Promise<RunOutput> {
  const format = query.format ?? 'json';
  assertFormatAvailable(format);
  const { definition } = newReportFields({ ...body, name: body.name ?? 'Report' });
  await assertReferences(db, actor.organizationId, body);
  return { format, result: await runSummary(db, await prepareReportRun(db, actor, definition, query.timeZone)) };
}

/** Runs one of the caller's saved reports (another's is 404, like the report itself). */
export async function runSavedReport(db: Db, actor: Actor, reportId: string, query: ReportRunQuery): Promise<RunOutput> {
  const format = query.format ?? 'json';
  assertFormatAvailable(format);
  const { id: _id, userId: _userId, name: _name, pinned: _pinned, ...definition } = await ownReport(db, actor, reportId);
  const run = await prepareReportRun(db, actor, definition satisfies RunDefinition, query.timeZone);
  return { format, result: await runSummary(db, run) };
}
