import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import { Report, ReportCreate, ReportMap, ReportParams, ReportUpdate } from './schemas.js';
import { changeReport, createReport, ownReport, ownReports, removeReport } from './saved-reports-service.js';

const TAG = 'Reports';
const OWNER_ONLY = 'Reports are their owner\'s only: another user\'s report is 404 for everyone, administrators included.';
const RULES =
  'period: custom, today, yesterday, thisWeek, lastWeek, thisMonth, lastMonth, thisYear, lastYear (start and end are ' +
  'stored as given for every period). dimensions: some of project, user, member, day, week, month; metrics: some of ' +
  'time, billableTime, revenue, cost, profit; each at least one, without repeats. start must be before end. ' +
  'selectedProjects / selectedProjectMembers: ids of existing projects / project members of this workspace, or ' +
  'null for all (422 otherwise; checked when written). filters: up to 100 free-form objects; overrides: up to 100 ' +
  '{column, hint, label}.';

const REPORT_RULES =
  'Also: a `name` blank once trimmed, an `end` not after `start`, or an id in `selectedProjects` or ' +
  '`selectedProjectMembers` that names no project or project member of this workspace (at its index)';

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reports',
    {
      config: { permission: 'reports:manage' },
      schema: operation({
        operationId: 'listReports',
        tag: TAG,
        summary: 'The caller\'s saved reports, by id',
        description: OWNER_ONLY,
        response: ReportMap,
      }),
    },
    async (request) => {
      const reports = await ownReports(app.db, request.actor);
      return Object.fromEntries(reports.map((report) => [report.id, report]));
    },
  );

  app.post(
    '/reports',
    {
      config: { permission: 'reports:manage' },
      schema: operation({
        operationId: 'createReport',
        tag: TAG,
        summary: 'Save a report definition, owned by the caller',
        description: `Any user. ${RULES} pinned is not taken here: a new report is unpinned (PUT pins it).`,
        body: ReportCreate,
        response: Type.Ref(Report),
        errors: { 422: REPORT_RULES },
      }),
    },
    async (request) => createReport(app.db, request.actor, request.body),
  );

  app.get(
    '/reports/:reportId',
    {
      config: { permission: 'reports:manage' },
      schema: operation({
        operationId: 'getReport',
        tag: TAG,
        summary: 'One of the caller\'s reports',
        description: OWNER_ONLY,
        params: ReportParams,
        response: Type.Ref(Report),
      }),
    },
    async (request) => ownReport(app.db, request.actor, request.params.reportId),
  );

  app.put(
    '/reports/:reportId',
    {
      config: { permission: 'reports:manage' },
      schema: operation({
        operationId: 'updateReport',
        tag: TAG,
        summary: 'Change one of the caller\'s reports',
        description: `${OWNER_ONLY} Any subset of the create fields plus pinned; fields left out keep their values. ${RULES}`,
        params: ReportParams,
        body: ReportUpdate,
        response: Type.Ref(Report),
        errors: { 422: REPORT_RULES },
      }),
    },
    async (request) => changeReport(app.db, request.actor, request.params.reportId, request.body),
  );

  app.delete(
    '/reports/:reportId',
    {
      config: { permission: 'reports:manage' },
      schema: operation({
        operationId: 'deleteReport',
        tag: TAG,
        summary: 'Delete one of the caller\'s reports',
        description: OWNER_ONLY,
        params: ReportParams,
        response: Empty,
      }),
    },
    async (request) => {
      await removeReport(app.db, request.actor, request.params.reportId);
      return {};
    },
  );
};
