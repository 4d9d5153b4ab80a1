import { invalid } from '../../domain/errors.js';
import type { SummaryResult } from './engine/summary.js';
import type { REPORT_FORMATS } from './schemas.js';

/*
 * The one place a report run's format is chosen (`format` query): JSON is the summary itself; the
 * exports (CSV, XLSX, PDF) plug in here.
 */

export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Refuses, before anything is read, a format the service cannot answer yet. */
export function assertFormatAvailable(format: ReportFormat): void {
  if (format !== 'json') throw invalid('/query/format', `format ${format} is not available yet`);
}

/** The summary in the asked format (only JSON today). */
export function summaryAnswer(_format: ReportFormat, result: SummaryResult): SummaryResult {
  return result;
}
