import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { lockRowForWrite } from '../../db/locks.js';
import { notFound } from '../../domain/errors.js';
import { Empty, operation } from '../../http/schemas.js';
import { deleteReport, findReport, insertReport, listReports, updateReport } from './repository.js';
import { newReportFields, updatedReportFields } from './rules.js';
import { Report, ReportCreate, ReportMap, ReportParams, ReportUpdate } from './schemas.js';

const TAG = 'Reports';
const OWNER_ONLY = 'Reports are their owner\'s only: another user\'s report is 404 for everyone, administrators included.';
const RULES =
  'period: custom, today, yesterday, thisWeek, lastWeek, thisMonth, lastMonth, thisYear, lastYear (start and end are ' +
  'stored as given for every period). dimensions: some of project, user, member, day, week, month; metrics: some of ' +
  'time, billableTime, revenue, cost, profit; each at least one, without repeats. start must be before end. ' +
  'selectedProjects / selectedProjectMembers: ids of existing projects / project members of this workspace, or ' +
  'null for all (422 otherwise; checked when written). filters: up to 100 free-form objects; overrides: up to 100 ' +
  '{column, hint, label}.';

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reports',
    {
      schema: operation({
        operationId: 'listReports',
        tag: TAG,
        summary: 'The caller\'s saved reports, by id',
        description: OWNER_ONLY,
        response: ReportMap,
      }),
    },
    async (request) => {
      const reports = await listReports(app.db, request.workspace.id, request.actor.userId);
      return Object.fromEntries(reports.map((report) => [report.id, report]));
    },
  );

  app.post(
    '/reports',
    {
      schema: operation({
        operationId: 'createReport',
        tag: TAG,
        summary: 'Save a report definition, owned by the caller',
        description: `Any user. ${RULES} pinned is not taken here: a new report is unpinned (PUT pins it).`,
        body: ReportCreate,
        response: Type.Ref(Report),
        errors: { 422: 'Bad enumeration value, start not before end, unknown selected project or member' },
      }),
    },
    async (request) => {
      const { id: organizationId } = request.workspace;
      const userId = request.actor.userId;
      const { name, definition } = await newReportFields(app.db, organizationId, request.body);
      const id = await insertReport(app.db, { organizationId, userId, name, definition });
      return (await findReport(app.db, organizationId, userId, id))!;
    },
  );

  app.get(
    '/reports/:reportId',
    {
      schema: operation({
        operationId: 'getReport',
        tag: TAG,
        summary: 'One of the caller\'s reports',
        description: OWNER_ONLY,
        params: ReportParams,
        response: Type.Ref(Report),
      }),
    },
    async (request) => {
      const report = await findReport(app.db, request.workspace.id, request.actor.userId, request.params.reportId);
      if (!report) throw notFound('report');
      return report;
    },
  );

  app.put(
    '/reports/:reportId',
    {
      schema: operation({
        operationId: 'updateReport',
        tag: TAG,
        summary: 'Change one of the caller\'s reports',
        description: `${OWNER_ONLY} Any subset of the create fields plus pinned; fields left out keep their values. ${RULES}`,
        params: ReportParams,
        body: ReportUpdate,
        response: Type.Ref(Report),
        errors: { 422: 'Bad enumeration value, start not before end, unknown selected project or member' },
      }),
    },
    async (request) => {
      const { id: organizationId } = request.workspace;
      const userId = request.actor.userId;
      const { reportId } = request.params;
      return app.db.transaction().execute(async (trx) => {
        // Serializes the owner's concurrent changes, so no merge loses another's fields.
        await lockRowForWrite(trx, 'users', userId);
        const current = await findReport(trx, organizationId, userId, reportId);
        if (!current) throw notFound('report');
        const { name, definition } = await updatedReportFields(trx, organizationId, current, request.body);
        await updateReport(trx, reportId, name, definition);
        return (await findReport(trx, organizationId, userId, reportId))!;
      });
    },
  );

  app.delete(
    '/reports/:reportId',
    {
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
      const { id: organizationId } = request.workspace;
      const report = await findReport(app.db, organizationId, request.actor.userId, request.params.reportId);
      if (!report) throw notFound('report');
      await deleteReport(app.db, report.id);
      return {};
    },
  );
};
