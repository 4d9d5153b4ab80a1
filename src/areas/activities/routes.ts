import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import { sendRendered } from '../../route-kit/json-answer.js';
import { nextLink } from '../../route-kit/pagination.js';
import { createActivity, deleteActivity, listActivities, updateActivity, visibleActivity } from './service.js';
import { Activity, ActivityCreate, ActivityMap, ActivityParams, ActivityQuery, ActivityUpdate } from './schemas.js';

const TAG = 'Activities';

export const activityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/activities',
    {
      config: { permission: 'activities:read', heavyListing: true },
      schema: operation({
        operationId: 'listActivities',
        tag: TAG,
        summary: 'Visible activities, optionally of a period, a user, projects, tasks, clients or tags',
        description:
          'The period is half-open: `from` keeps activities that end after it (running timers always), `to` those ' +
          'that start before it; an activity ending exactly at `from` or starting exactly at `to` is out. ' +
          '`from` after `to` is 422. Without filters, every visible activity. Entries are in `startedAt` order, then id. ' +
          '`projectId`, `taskId`, `clientId` and `tagId` may each repeat (any of the values); all filters combine by AND. ' +
          'Each listing is an index range (by user, by project, or the workspace, each ordered by `startedAt`), and `from` ' +
          'bounds that range through the longest activity on record (of the listed user, or of the workspace; at most 31 days, ' +
          'and lowered again when that activity is deleted or shortened), so the cost follows the size of the answer, not of the history. ' +
          'Pages: `limit` (1 to 2000) answers at most that many entries; a full page carries `Link: <…>; rel="next"` whose ' +
          'opaque `cursor` continues after it with the same filters. A request with neither gets the whole listing. ' +
          'At most LISTING_CONCURRENCY_PER_TOKEN (default 2) listings of one token and LISTING_CONCURRENCY_PER_WORKSPACE ' +
          '(default 4) of one workspace run at once in an instance, each until its answer is written out or its connection ' +
          'closes; beyond either, 429 `rate-limited` with `Retry-After: 1`.',
        querystring: ActivityQuery,
        response: ActivityMap,
        errors: {
          422: 'Also: `from` after `to`, a `from`/`to` without an offset, or a `cursor` that no page of this listing gave (at /query/cursor)',
        },
      }),
    },
    async (request, reply) => {
      const listed = await listActivities(app.db, request.actor, request.query);
      if (listed.next !== undefined) reply.header('link', nextLink(request.url, listed.next));
      return sendRendered(reply, listed.entries);
    },
  );

  app.post(
    '/activities',
    {
      config: { permission: 'activities:write' },
      schema: operation({
        operationId: 'createActivity',
        tag: TAG,
        summary: 'Record time, or start a timer with `pending: true`',
        description:
          'Always for the caller. Starting a timer closes the caller\'s running one at the new startedAt (or at its ' +
          'own startedAt when later); a user never has two running timers. That close is a change of the running ' +
          'activity: its timesheet week must be open (423) and it may not become longer than 31 days (422). ' +
          'An activity is at most 31 days long; a timer starts at most 24 hours after now.',
        body: ActivityCreate,
        response: Type.Ref(Activity),
        errors: {
          409: 'Two timers of the caller started at the very same moment twice in a row',
          422:
            'Also: `endedAt` missing without `pending`, `endedAt` before `startedAt`, an activity longer than 31 days (at /body/endedAt), ' +
            'a timer starting more than 24 hours after now (at /body/startedAt), a new timer that would close the running one ' +
            'more than 31 days after its start (at /body/startedAt), a `projectId` that names no unarchived project the ' +
            'caller is a member of, a `taskId` that names no unarchived task of that project (at /body/taskId), or `tagIds` ' +
            'with more than 25 distinct tags or one that is unknown or archived (at /body/tagIds)',
          423: 'A User\'s activity whose startedAt falls in a locked timesheet week, or a User\'s running timer in such a week that the new timer would close (administrators are not held)',
        },
      }),
    },
    async (request) => createActivity(app.db, request.actor, request.body),
  );

  app.get(
    '/activities/:activityId',
    {
      config: { permission: 'activities:read' },
      schema: operation({
        operationId: 'getActivity',
        tag: TAG,
        summary: 'One activity, when the caller may see it',
        description:
          'An administrator sees every activity; a User their own and those on projects they administer. Any other ' +
          'activity is 404, as is an unknown id.',
        params: ActivityParams,
        response: Type.Ref(Activity),
      }),
    },
    // Not async: on SQLite the answer is sent in the same turn when the read answers at once.
    (request) => visibleActivity(app.db, request.actor, request.params.activityId),
  );

  app.put(
    '/activities/:activityId',
    {
      config: { permission: 'activities:write' },
      schema: operation({
        operationId: 'updateActivity',
        tag: TAG,
        summary: 'Change an activity; endedAt closes a timer, endedAt null reopens it',
        description:
          'The activity\'s user and administrators only. An activity is at most 31 days long (a running timer\'s length counts ' +
          'when it is closed); a running timer, reopened or moved, starts at most 24 hours after now.',
        params: ActivityParams,
        body: ActivityUpdate,
        response: Type.Ref(Activity),
        errors: {
          403: 'A project admin who sees the activity but does not own it',
          409: 'Reopening while another timer of the activity\'s user runs',
          422:
            'Also: `endedAt` before `startedAt`, an activity longer than 31 days (at the field sent, /body/endedAt first), a running ' +
            'timer starting more than 24 hours after now (at /body/startedAt), a `projectId` that names no unarchived project ' +
            'the activity\'s user is a member of, a `taskId` that is not a task of the project the activity has after the write ' +
            '(also a move to another project that keeps the old one\'s task: at /body/taskId), or `tagIds` with more than 25 ' +
            'distinct tags or one that is unknown, or archived and not on the activity already (at /body/tagIds)',
          423: 'A User\'s change when the old or the new startedAt falls in a locked timesheet week',
        },
      }),
    },
    async (request) => updateActivity(app.db, request.actor, request.params.activityId, request.body),
  );

  app.delete(
    '/activities/:activityId',
    {
      config: { permission: 'activities:write' },
      schema: operation({
        operationId: 'deleteActivity',
        tag: TAG,
        summary: 'Delete an activity',
        description: 'The activity\'s user and administrators only.',
        params: ActivityParams,
        response: Empty,
        errors: {
          403: 'A project admin who sees the activity but does not own it',
          423: 'A User\'s activity whose startedAt falls in a locked timesheet week (administrators are not held)',
        },
      }),
    },
    async (request) => {
      await deleteActivity(app.db, request.actor, request.params.activityId);
      return {};
    },
  );
};
