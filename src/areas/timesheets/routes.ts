import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { workspaceUrl } from '../../config.js';
import { lockRowForWrite } from '../../db/locks.js';
import { invalid, notFound } from '../../domain/errors.js';
import { Empty, operation } from '../../http/schemas.js';
import { toUtcIso } from '../../lib/time.js';
import { enqueueMessage } from '../mail/index.js';
import { getOrganization, Organization } from '../workspace/index.js';
import {
  activeUsersWithPreferences,
  deleteLock,
  findLockSettings,
  listLocks,
  recordAutoLock,
  toLock,
  upsertLock,
  userExists,
} from './repository.js';
import { weekOfNextAutoLock, weekToAutoLock } from './rules.js';
import { LockCreate, LockParams, LocksQuery, NullAnswer, ReasonBody, TimesheetLock, TimesheetLockMap } from './schemas.js';
import { assertRealWeek, datesOfWeek } from '../../lib/iso-weeks.js';

const TAG = 'Timesheets';
const ADMINS_ONLY = { 403: 'Not an administrator' } as const;

/** `notifications.timesheetReminder.email` of a preferences document: only an explicit false turns it off. */
function wantsReminderMail(preferences: Record<string, unknown>): boolean {
  const notifications = preferences.notifications as Record<string, { email?: unknown } | undefined> | undefined;
  return notifications?.timesheetReminder?.email !== false;
}

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
      const organizationId = request.workspace.id;
      return app.db.transaction().execute(async (trx) => {
        // Serializes concurrent runs: each reads the recorded week the previous one wrote.
        await lockRowForWrite(trx, 'organizations', organizationId);
        const week = weekToAutoLock(await findLockSettings(trx, organizationId));
        if (week) await recordAutoLock(trx, organizationId, week);
        request.log.info({ reason: request.body.reason, locked: week }, 'timesheet auto-lock evaluated');
        return getOrganization(trx, organizationId);
      });
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
          'this workspace (archived ones included) and year/week a real ISO week (week 53 only in long years), else ' +
          '422. While `unlockedTo` is in the future the week stays open for the user.',
        body: LockCreate,
        response: Type.Ref(TimesheetLock),
        errors: ADMINS_ONLY,
      }),
    },
    async (request) => {
      const { body } = request;
      const organizationId = request.workspace.id;
      assertRealWeek(body.year, body.week, { year: '/body/year', week: '/body/week' });
      let unlockedTo: string | null = null;
      if (body.unlockedTo !== undefined && body.unlockedTo !== null) {
        unlockedTo = toUtcIso(body.unlockedTo);
        if (unlockedTo === null) throw invalid('/body/unlockedTo', 'must be an ISO 8601 date-time with an offset (Z or ±hh:mm)');
      }
      return app.db.transaction().execute(async (trx) => {
        // Holds the user row, so the user cannot be deleted between the check and the write.
        if (!(await userExists(trx, organizationId, body.userId)) || !(await lockRowForWrite(trx, 'users', body.userId))) {
          throw invalid('/body/userId', 'must name a user of this workspace');
        }
        const row = await upsertLock(trx, {
          organizationId,
          userId: body.userId,
          week: { year: body.year, week: body.week },
          unlockedTo,
        });
        return toLock(row);
      });
    },
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
      if (!(await deleteLock(app.db, request.workspace.id, request.params.lockId))) throw notFound('timesheet lock');
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
      const { userId, year } = request.query;
      if (year !== undefined && !/^\d{4}$/.test(year)) throw invalid('/query/year', 'must be a four-digit year');
      const rows = await listLocks(app.db, {
        organizationId: request.workspace.id,
        ...(userId !== undefined ? { userId } : {}),
        ...(year !== undefined ? { year: Number(year) } : {}),
      });
      return Object.fromEntries(rows.map((row) => [row.id, toLock(row)]));
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
      const organizationId = request.workspace.id;
      const link = workspaceUrl(app.config, request.workspace.domain);
      await app.db.transaction().execute(async (trx) => {
        const week = weekOfNextAutoLock(await findLockSettings(trx, organizationId));
        const { monday, sunday } = datesOfWeek(week);
        let count = 0;
        for (const user of await activeUsersWithPreferences(trx, organizationId)) {
          if (!wantsReminderMail(user.preferences)) continue;
          await enqueueMessage(trx, {
            organizationId,
            to: user.email,
            kind: 'timesheetReminder',
            subject: `Please complete your timesheet for week ${week.week} of ${week.year}`,
            body:
              `Hello${user.name ? ` ${user.name}` : ''},\n\n` +
              `week ${week.week} of ${week.year} (${monday} to ${sunday}) will soon be locked in workspace ` +
              `"${request.workspace.domain}". Please check that your time for that week is complete:\n\n${link}\n`,
          });
          count++;
        }
        request.log.info({ reason: request.body.reason, week, messages: count }, 'timesheet reminders written');
      });
      return reply.send(null);
    },
  );
};
