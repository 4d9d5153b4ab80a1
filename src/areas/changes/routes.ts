import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { JSON_TYPE } from '../../route-kit/json-answer.js';
import { operation } from '../../route-kit/schemas.js';
import { CHANGE_TYPES } from './rules.js';
import { ChangePage, ChangeQuery } from './schemas.js';
import { listChanges, type ChangePage as Page } from './service.js';

const DEFAULT_LIMIT = 100;

export const changeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/changes',
    {
      config: { permission: 'changes:read' },
      schema: operation({
        operationId: 'listChanges',
        tag: 'Changes',
        summary: 'What changed: the workspace\'s change feed, after a cursor',
        description:
          'Every committed change to the workspace\'s activities, timers, projects, project members, revenue and cost rates, ' +
          'users, reports, requests, timesheet locks, clients, tasks and tags is one event, recorded in the same transaction as the change (a change ' +
          'that is rolled back leaves none). Types: ' +
          Object.keys(CHANGE_TYPES).map((type) => `\`${type}\``).join(', ') +
          '. Each change has exactly one event: a new running timer is `timer.started` (not `activity.created`), an update that ' +
          'closes a running timer `timer.stopped` and one that reopens an activity `timer.started`; starting a timer while one runs ' +
          'stops that one first (`timer.stopped`, then `timer.started`). Cascades are not repeated: `project.deleted` implies its ' +
          'members, tasks and revenue rates are gone and its activities have `projectId: null` and `taskId: null`; `task.deleted` ' +
          'that its activities have `taskId: null`; `tag.deleted` that it is gone from every activity\'s `tagIds`; `user.deleted` that the user\'s ' +
          'activities, memberships, rates, reports, locks and requests are gone; a resolved request\'s effects have events of their ' +
          'own (`member.added`, `member.updated`, `timesheet.unlocked`). `request.resolved` covers both outcomes (`data.status` ' +
          'RESOLVED or REJECTED). Administrators read every event; a User those of records whose GET they may make (their own ' +
          'activities, requests, reports and cost rates, the activities and revenue rates of projects they administer, the projects ' +
          'and members of projects they belong to and their tasks, the clients of those projects, every user and every tag), judged ' +
          'when the feed is read. ' +
          'Order and cursor: events are in commit order, numbered per workspace; `cursor` (also in `Link: <…>; rel="next"`) ' +
          'continues after the last event answered, or from the end of the feed when `hasMore` is false, so a reader that follows it ' +
          'sees every event exactly once, also while several instances commit at once. Without `after`, the feed starts at the oldest ' +
          'event kept. Events are kept CHANGE_RETENTION_DAYS (default 30) days; a cursor older than that is 410 (`gone`): read the ' +
          'state again from the listings, then follow the feed from GET /changes without `after`.',
        querystring: ChangeQuery,
        response: ChangePage,
        errors: {
          410: 'The events after `after` were pruned (older than the retention): resync from the listings, then start again without `after`',
          422: 'Also: an `after` past the end of this workspace\'s feed (at /query/after)',
        },
      }),
    },
    async (request, reply) => {
      const { after, limit } = request.query;
      const page = await listChanges(app.db, request.actor, {
        after: after === undefined ? undefined : Number(after),
        limit: limit === undefined ? DEFAULT_LIMIT : Number(limit),
      });
      reply.header('link', `<${nextUrl(request.url, page.cursor)}>; rel="next"`);
      // Each event's data is the JSON stored with it: the answer is assembled as text, not re-serialized.
      return reply.type(JSON_TYPE).send(pageJson(page) as never);
    },
  );
};

function pageJson(page: Page): string {
  const events = page.events.map(
    (event) =>
      `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(event.createdAt)},` +
      `"actorId":${JSON.stringify(event.actorId)},"data":${event.data}}`,
  );
  return `{"events":[${events.join(',')}],"cursor":${JSON.stringify(page.cursor)},"hasMore":${page.hasMore}}`;
}

/** The request's own path and query with `after` set to the cursor (relative to the request). */
function nextUrl(url: string, cursor: string): string {
  const at = url.indexOf('?');
  const query = new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
  query.set('after', cursor);
  return `${at < 0 ? url : url.slice(0, at)}?${query.toString()}`;
}
