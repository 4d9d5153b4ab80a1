import type { Db } from '../../db/database.js';
import type { Actor } from '../../domain/actor.js';
import { prepareReportRun, type RunDefinition } from './engine/run.js';
import { runSummary } from './engine/summary.js';
import { newReportFields } from './rules.js';
import type { FormattedRun } from './run-formats.js';
import type { ReportRunBody, ReportRunQuery } from './schemas.js';
import { assertReferences, ownReport } from './saved-reports-service.js';

/** What a run answers: the summary, the format to render it in, and what a file names and labels. */
export type RunOutput = FormattedRun;

/** Runs an ad-hoc definition: checked exactly as POST /reports checks it (name optional), never saved. */
export async function runAdHocReport(db: Db, actor: Actor, body: ReportRunBody, query: ReportRunQuery): Promise<RunOutput> {
  const format = query.format ?? 'json';
  const { name, definition } = newReportFields({ ...body, name: body.name ?? 'Report' });
  await assertReferences(db, actor.organizationId, body);
  const result = await runSummary(db, await prepareReportRun(db, actor, definition, query.timeZone));
  return { format, result, ...(body.name === undefined ? {} : { name }), overrides: definition };
}

/** Runs one of the caller's saved reports (another's is 404, like the report itself). */
export async function runSavedReport(db: Db, actor: Actor, reportId: string, query: ReportRunQuery): Promise<RunOutput> {
  const format = query.format ?? 'json';
  const { id: _id, userId: _userId, name, pinned: _pinned, ...definition } = await ownReport(db, actor, reportId);
  const run = await prepareReportRun(db, actor, definition satisfies RunDefinition, query.timeZone);
  return { format, result: await runSummary(db, run), name, overrides: definition };
}
