import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import { Organization } from '../workspace/index.js';
import { LockCreate, LockParams, LocksQuery, NullAnswer, ReasonBody, TimesheetLock, TimesheetLockMap } from './schemas.js';
import { lockWeek, removeLock, runAutoLock, sendTimesheetReminders, workspaceLocks } from './service.js';

const TAG = 'Timesheets';
const ADMINS_ONLY = { 403: 'Not an administrator' } as const;

export const timesheetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.put(
    '/timesheets/auto-lock',
    {
      config: { permission: 'timesheets:manage' },
      schema: operation({
        operationId: 'runTimesheetAutoLock',
        tag: TAG,
        summary: 'Run the weekly automatic lock',
        description:
          'Administrators only. When lockingTimesheets.enabled and the last fully elapsed ISO week in the lock time ' +
          'zone (lockingTimesheets.timeZone, else the organization timeZone, else UTC) is later than the recorded ' +
          'lockingTimesheets year/week (or none is recorded), records that week: every week up to it is then locked ' +
          'for Users, so runs that were missed catch up at once. Otherwise changes nothing. Answers the organization ' +
          'either way. `reason` is written to the server log.',
        body: ReasonBody,
        response: Type.Ref(Organization),
        errors: ADMINS_ONLY,
      }),
    },
    async (request) => {
      const { organization, locked } = await runAutoLock(app.db, request.actor);
      request.log.info({ reason: request.body.reason, locked }, 'timesheet auto-lock evaluated');
      return organization;
    },
  );

  app.post(
    '/timesheets/lock',
    {
      config: { permission: 'timesheets:manage' },
      schema: operation({
        operationId: 'lockTimesheet',
        tag: TAG,
        summary: 'Lock one user\'s ISO week, or replace the lock of that week',
        description:
          'Administrators only. One record per user and ISO week: locking a week that already has one replaces its ' +
          'unlockedTo (absent means null) and updatedAt and keeps its id and createdAt. `userId` must name a user of ' +
          'this workspace (archived ones included) and `year`/`week` a real ISO week (week 53 only in long years), else ' +
          '422. While `unlockedTo` is in the future the week stays open for the user.',
        body: LockCreate,
        response: Type.Ref(TimesheetLock),
        errors: ADMINS_ONLY,
      }),
    },
    async (request) => lockWeek(app.db, request.actor, request.body),
  );

  app.delete(
    '/timesheets/lock/:lockId',
    {
      config: { permission: 'timesheets:manage' },
      schema: operation({
        operationId: 'deleteTimesheetLock',
        tag: TAG,
        summary: 'Remove a lock record',
        description:
          'Administrators only. The week is then locked only if the automatic lock covers it.',
        params: LockParams,
        response: Empty,
        errors: ADMINS_ONLY,
      }),
    },
    async (request) => {
      await removeLock(app.db, request.actor, request.params.lockId);
      return {};
    },
  );

  app.get(
    '/timesheets/locks',
    {
      config: { permission: 'timesheets:manage' },
      schema: operation({
        operationId: 'listTimesheetLocks',
        tag: TAG,
        summary: 'The workspace\'s lock records',
        description:
          'Administrators only. Beyond the reference. Optional filters: `userId`, and `year` (four digits, else 422).',
        querystring: LocksQuery,
        response: TimesheetLockMap,
        errors: ADMINS_ONLY,
      }),
    },
    async (request) => {
      const locks = await workspaceLocks(app.db, request.actor, request.query);
      return Object.fromEntries(locks.map((lock) => [lock.id, lock]));
    },
  );

  app.post(
    '/timesheets/reminder',
    {
      config: { permission: 'timesheets:manage' },
      schema: operation({
        operationId: 'sendTimesheetReminder',
        tag: TAG,
        summary: 'Remind users to fill in their timesheets before the automatic lock',
        description:
          'Administrators only. Writes a `timesheetReminder` message to every unarchived user of the workspace, ' +
          'except those whose preferences set notifications.timesheetReminder.email to false, for the week the next ' +
          'automatic lock will close: the last fully elapsed week in the lock time zone when the recorded lock is ' +
          'behind it (or none is recorded), otherwise the week after the recorded one. Answers JSON null. `reason` is ' +
          'written to the server log.',
        body: ReasonBody,
        response: NullAnswer,
        errors: ADMINS_ONLY,
      }),
    },
    async (request, reply) => {
      const { week, messages } = await sendTimesheetReminders(app.db, request.actor, request.workspace, app.config);
      request.log.info({ reason: request.body.reason, week, messages }, 'timesheet reminders written');
      return reply.send(null);
    },
  );
};
