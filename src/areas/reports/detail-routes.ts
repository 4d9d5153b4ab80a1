import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { nextLink } from '../../route-kit/pagination.js';
import { operation } from '../../route-kit/schemas.js';
import { DETAIL_PIECE, type DetailAnswer } from './detail-service.js';
import { DetailedReport, DetailQuery } from './detail-schemas.js';
import { EXPORT_TYPES, sendExport } from './exports/answer.js';
import { ReportParams, ReportRunBody } from './schemas.js';
import { adHocDetailedReport, savedDetailedReport } from './run-service.js';

const TAG = 'Reports';

const DETAIL =
  'Every entry the report counts, as its summary counts them (the activities GET /activities shows the caller, closed, ' +
  'startedAt in the period, after the report\'s filters and selections), in startedAt order, then id: its user, project, ' +
  'client (the project\'s, as it is now) and task ({id, name} or null), tags ([{id, name}] in the activity\'s order), ' +
  'rounded `duration` and `rawDuration` in seconds, and the money the caller may read. Revenue (`revenueRate`, `revenue`) ' +
  'when the report asks for revenue or profit, on the projects whose revenue rates the caller reads (administrators: all; ' +
  'project admins: the projects they administer); cost (`costRate`, `cost`) when it asks for cost or profit, administrators ' +
  'only. Amounts are rounded per entry to the currency\'s minor unit. ' +
  'JSON comes in pages: `limit` (default 1000, at most 2000) entries, and a page followed by more carries ' +
  '`Link: <…>; rel="next"` whose opaque `cursor` continues after it; a relative period (thisMonth…) is resolved again for each page. ' +
  '`format=csv` or `xlsx` answers every entry as one download (`Content-Disposition` names the file), written as the client reads it: ' +
  `read from the store ${DETAIL_PIECE} entries at a time (on PostgreSQL from one snapshot), so memory does not grow with the report. ` +
  'CSV: RFC 4180, UTF-8 with a byte-order mark, a header row (the report\'s `overrides` labels when `overridesEnabled`, by the ' +
  'JSON name of the field): User, Client, Project, Task, Description, Tags (the names joined by ", " in one cell), Billable, ' +
  'Date, Start, End, Duration, Raw duration, then money; durations as decimal hours and H:MM, one rate and one amount column per currency, a totals row, ' +
  'text beginning with = + - @ tab or CR prefixed with an apostrophe. XLSX: typed cells, durations `[h]:mm`, a frozen header, a totals row. ' +
  'At most LISTING_CONCURRENCY_PER_TOKEN (default 2) such reports of one token and LISTING_CONCURRENCY_PER_WORKSPACE (default 4; ' +
  'on PostgreSQL at most LONG_READS_PER_WORKSPACE, default 2) of one workspace run at once, each until its answer is written out; ' +
  'beyond either, 429 `rate-limited` with `Retry-After: 1`. A file whose connection moves no byte for LONG_READ_STALL_MS (default 10 s) is closed.';

const FILES = { 'text/csv': 'the whole report as CSV (format=csv)', [EXPORT_TYPES.xlsx]: 'the whole report as XLSX (format=xlsx)' };

const ERRORS = {
  403: 'The report asks for `cost` or `profit` and the caller is not an administrator, or for `revenue` and the caller reads no project\'s revenue rates',
  422:
    'Also: a `timeZone` that names no IANA time zone, a `cursor` that no page gave, `limit` or `cursor` with a format other than json ' +
    '("applies to format json only: a file holds every entry")',
};

/** A page (with its Link) or a download. */
function answer(request: FastifyRequest, reply: FastifyReply, detail: DetailAnswer) {
  if (detail.format === 'json') {
    if (detail.next !== undefined) reply.header('link', nextLink(request.url, detail.next));
    return detail.page;
  }
  return sendExport(reply, detail.format, detail.table, detail.fileName);
}

export const detailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/reports/entries',
    {
      config: { permission: 'reports:manage', heavyListing: true },
      schema: operation({
        operationId: 'runReportEntries',
        tag: TAG,
        summary: 'The detailed report of a definition, without saving it: every entry, in pages or as a file',
        description: `Any user, of what they may see. The body of POST /reports, name optional (it names the file). ${DETAIL}`,
        querystring: DetailQuery,
        body: ReportRunBody,
        response: Type.Ref(DetailedReport),
        files: FILES,
        errors: {
          ...ERRORS,
          422:
            `${ERRORS[422]}; and, as for POST /reports, an \`end\` not after \`start\`, a \`name\` blank once trimmed, or an id in ` +
            '`selectedProjects` or `selectedProjectMembers` that names no project or project member of this workspace',
        },
      }),
    },
    async (request, reply) => answer(request, reply, await adHocDetailedReport(app.db, request.actor, request.body, request.query)),
  );

  app.get(
    '/reports/:reportId/entries',
    {
      config: { permission: 'reports:manage', heavyListing: true },
      schema: operation({
        operationId: 'getReportEntries',
        tag: TAG,
        summary: 'The detailed report of one of the caller\'s saved reports: every entry, in pages or as a file',
        description: `Reports are their owner's only: another user's report is 404. ${DETAIL}`,
        params: ReportParams,
        querystring: DetailQuery,
        response: Type.Ref(DetailedReport),
        files: FILES,
        errors: ERRORS,
      }),
    },
    async (request, reply) => answer(request, reply, await savedDetailedReport(app.db, request.actor, request.params.reportId, request.query)),
  );
};
