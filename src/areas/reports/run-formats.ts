import type { FastifyReply } from 'fastify';
import { closeWhenStalled } from '../../route-kit/json-answer.js';
import type { SummaryResult } from './engine/summary.js';
import { sendExport } from './exports/answer.js';
import { exportFileName } from './exports/disposition.js';
import { labeller, type Overridable } from './exports/labels.js';
import type { REPORT_FORMATS } from './schemas.js';
import { summaryJson } from './summary-json.js';
import { periodDaysOf, summaryTable } from './summary-table.js';

/*
 * The one place a report run's format is chosen (`format` query): JSON is the summary itself; CSV,
 * XLSX and PDF are the summary's table (summary-table.ts) written by the export writers and sent as
 * a download.
 */

export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A run's answer before its format is applied: the summary, and the report's name and column overrides. */
export interface FormattedRun {
  format: ReportFormat;
  result: SummaryResult;
  /** The saved report's name, or the ad-hoc definition's (absent: none given). */
  name?: string;
  /** The workspace's name, for a file's title. */
  workspace: string;
  overrides: Overridable;
}

/**
 * The summary in the asked format: the JSON answer, or the reply that sends the file.
 * JSON is written by summary-json.ts rather than the route's serializer: the engine builds every row
 * with the schema's fields only (engine/tree.ts `finished`), and the serializer compiled from the
 * recursive row schema takes several times as long for a filled answer of 100,000 rows, all of it on
 * the event loop (docs/performance.md, "Report runs").
 */
export async function summaryAnswer(reply: FastifyReply, run: FormattedRun): Promise<SummaryResult | FastifyReply> {
  if (run.format === 'json') {
    const json = summaryJson(run.result);
    if (typeof json !== 'string') closeWhenStalled(reply);
    return reply.type('application/json; charset=utf-8').send(json);
  }
  const table = summaryTable(run.result, run.name ?? 'Summary report', labeller(run.overrides), { workspace: run.workspace, subtotals: run.format === 'pdf' });
  const fileName = exportFileName(run.name, periodDaysOf(run.result.start, run.result.end, run.result.timeZone), run.format);
  return sendExport(reply, run.format, table, fileName);
}
