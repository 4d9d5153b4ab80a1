import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { operation } from '../../route-kit/schemas.js';
import { MAX_FILLED_BUCKETS, MAX_TIME_SPAN_YEARS } from './engine/buckets.js';
import { MAX_ROWS } from './engine/tree.js';
import { EXPORT_TYPES } from './exports/answer.js';
import { summaryAnswer } from './run-formats.js';
import { runAdHocReport, runSavedReport } from './run-service.js';
import { ReportParams, ReportResult, ReportRunBody, ReportRunQuery } from './schemas.js';

const TAG = 'Reports';

/** The rules of a run, as docs/rules.md §6 Reports states them, for both operations' descriptions. */
const RUN_RULES = [
  'Formats: `format=json` (default) answers the summary below; csv, xlsx and pdf answer it as a download whose ' +
    '`Content-Disposition` names the file (the report\'s name and the first day of the period).',
  'Period: custom uses start and end; today, yesterday, thisWeek, lastWeek, thisMonth, lastMonth, thisYear and lastYear are ' +
    'resolved when the report runs, on the calendar of the report\'s time zone (the timeZone query, else the caller\'s preference, ' +
    'else the organization\'s, else UTC); weeks are ISO weeks starting Monday. Instants before 0001-01-02 or after 9999-12-30 are left out.',
  'Entries: closed activities whose startedAt is in [start, end), each counted whole, exactly those GET /activities shows the ' +
    'caller (an Administrator: all; a User: their own and those on projects they administer). selectedProjects and ' +
    'selectedProjectMembers (null: all) keep entries on those projects / of those memberships; unless showArchivedProjects, ' +
    'entries on archived projects are left out; unless showArchivedMembers, entries of archived users and of archived ' +
    'memberships are left out.',
  'Filters (each object understood when every key is one of these, all applying together): {"billable": true|false}, ' +
    '{"userIds": [ids]}, {"projectIds": [ids, null for no project]}, {"clientIds": [ids, null for no client]} (entries on ' +
    'projects of these clients), {"taskIds": [ids, null for no task]}, {"tagIds": [ids, null for no tag], "match": "any"|"all"|"none"} ' +
    '(any, the default: the entry carries one of them; all: every one of them; none: none of them; null is the "no tag" of an ' +
    'entry without tags; match only beside tagIds), {"nameContains": "text"} (ASCII letters without regard to case). Ids that ' +
    'name nothing select nothing (none of them: everything), never an error. Other objects (unknown keys, values of the wrong ' +
    'type) are listed in ignoredFilters as sent and change nothing; a filter that is not an object is 422.',
  'Rounding: when the organization\'s rounding is enabled, each entry\'s duration (whole seconds, milliseconds dropped) is ' +
    'rounded to interval minutes (DOWN, UP, or NEAREST with a half interval going up) before summing; money uses the rounded time.',
  'Money: revenue = rounded billable hours × the value of the entry\'s member\'s revenue rate whose [from, to) holds startedAt ' +
    '(the member: the entry\'s user in its project); cost = rounded hours × the user\'s cost rate in force at startedAt; profit = ' +
    'revenue − cost; per currency. Each leaf row\'s exact sum is rounded once to the currency\'s ISO 4217 minor unit (half away ' +
    'from zero); parent rows and totals are the sums of their rounded children, so every total equals the sum of its rows ' +
    '(except above a tag dimension: see By tag). ' +
    'Billable time with no revenue rate is unpricedBillableTime, time with no cost rate uncostedTime.',
  'Who sees money: revenue needs revenue-rate access (an Administrator: every project; a project admin: the projects they ' +
    'administer, other billable time then shows as revenueWithheldTime); cost and profit are Administrators\' only. Asking ' +
    'for a metric one may read none of is 403 naming it.',
  'Rows: a tree following dimensions (rows[].rows for the next, absent at the leaf). Keys: project, user, member, client, task ' +
    'or tag id (null: no project / member / client / task / tag), day 2026-07-01, ISO week 2026-W27, month 2026-07, each entry\'s ' +
    'day, week and month taken at its own startedAt in the zone (right across DST changes). Labels: names (a user\'s email when ' +
    'unnamed; clients, tasks and tags by their current names; a client is the project\'s as it is now), No project, No member, ' +
    'No client, No task, No tag. Order: days, weeks and months in time order; the others by label without regard to case, then ' +
    'label, then id; null keys last. Every row carries entries (count) and the asked metrics.',
  'By tag: an entry with several tags counts in the row of each of its tags (untagged ones in No tag) and once in the row ' +
    'above the tag dimension and in the totals: the rows of the dimension just above tag (the totals when tag comes first) ' +
    'count each entry once and round its money once from their own exact sums, so the tag rows under them may add up to more. ' +
    'Under a tag, the next dimensions split its entries, each once.',
  `hideEmptyRows false fills every day, week or month of the period (at most ${MAX_FILLED_BUCKETS} of a dimension), every ` +
    'project, user and member whose entries the caller could see in this report (under a project: its members; under a user: ' +
    'their projects), the clients and tasks of those projects (a User: of their projects only), and every tag but those a ' +
    '"match": "none" filter leaves out, with zeros; under a row of no project, member, client, task or tag only days, weeks and ' +
    `months; at most ${MAX_ROWS} rows in all.`,
  'Runs at once: at most LISTING_CONCURRENCY_PER_TOKEN (default 2) runs of one token and LISTING_CONCURRENCY_PER_WORKSPACE ' +
    '(default 4) of one workspace run at once in an instance, counted apart from listings and detailed reports, each until its ' +
    'answer is written out or its connection closes; beyond either, 429 `rate-limited` with `Retry-After: 1`.',
].join(' ');

/** The files a run answers besides JSON (src/areas/reports/exports/). */
const RUN_FILES = {
  'text/csv':
    'format=csv: RFC 4180, UTF-8 with a byte-order mark; a header row (the report\'s `overrides` labels by dimension or metric ' +
    'name when `overridesEnabled`); one row per leaf of the tree with a column per dimension (Project, User, Member, Client, ' +
    'Task, Tag: names; days, weeks and months by key) and per metric (durations as decimal hours and H:MM, one money column per ' +
    'currency), then a totals row (by tag counting each entry once); text ' +
    'beginning with = + - @ tab or CR prefixed with an apostrophe',
  [EXPORT_TYPES.xlsx]: 'format=xlsx: the same table with typed cells (durations `[h]:mm`, money with its currency\'s decimals, days as dates), a frozen header and a bold totals row',
  [EXPORT_TYPES.pdf]:
    'format=pdf: the title (the report\'s name, else "Summary report") and the workspace\'s name, the period and its time zone, a bar chart of the first dimension, the table (its header on every page, columns as wide as their text, a bold subtotal after each group of the first dimension when there are two or more) and its totals, pages numbered',
};

const RUN_ERRORS = {
  403: 'A metric the caller may read none of: revenue (neither an Administrator nor a project admin), cost or profit (not an Administrator); the detail names it',
  422:
    `Also: a \`timeZone\` that names no IANA zone; \`hideEmptyRows\` ` +
    `false with more than ${MAX_FILLED_BUCKETS} days, weeks or months, or more than ${MAX_ROWS} rows to fill; a day, week or month ` +
    `dimension over a period of more than ${MAX_TIME_SPAN_YEARS} years`,
};

export const reportRunRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/reports/run',
    {
      config: { permission: 'reports:manage', reportRun: true },
      schema: operation({
        operationId: 'runReport',
        tag: TAG,
        summary: 'Run a report definition without saving it',
        description: `Any user. The body of POST /reports, name optional. ${RUN_RULES}`,
        querystring: ReportRunQuery,
        body: ReportRunBody,
        response: Type.Ref(ReportResult),
        files: RUN_FILES,
        errors: {
          ...RUN_ERRORS,
          422: `${RUN_ERRORS[422]}; and, as for POST /reports, an \`end\` not after \`start\`, a \`name\` blank once trimmed, or an id in \`selectedProjects\` or \`selectedProjectMembers\` that names no project or project member of this workspace`,
        },
      }),
    },
    async (request, reply) => summaryAnswer(reply, await runAdHocReport(app.db, request.actor, request.body, request.query)),
  );

  app.get(
    '/reports/:reportId/run',
    {
      config: { permission: 'reports:manage', reportRun: true },
      schema: operation({
        operationId: 'runSavedReport',
        tag: TAG,
        summary: 'Run one of the caller\'s saved reports',
        description: `Reports are their owner's only: another user's report is 404 for everyone, administrators included. ${RUN_RULES}`,
        params: ReportParams,
        querystring: ReportRunQuery,
        response: Type.Ref(ReportResult),
        files: RUN_FILES,
        errors: RUN_ERRORS,
      }),
    },
    async (request, reply) => summaryAnswer(reply, await runSavedReport(app.db, request.actor, request.params.reportId, request.query)),
  );
};
