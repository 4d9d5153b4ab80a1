import type { Db, Trx } from '../../db/database.js';
import type { Actor } from '../../domain/actor.js';
import { gone, invalid } from '../../domain/errors.js';
import { readerScope } from '../../domain/policy.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import {
  expiredThrough,
  headPosition,
  insertChange,
  prunedThrough,
  pruneThrough,
  readChanges,
  type ChangeReader,
  type StoredChange,
} from './repository.js';
import { CHANGE_TYPES, cursorOf, isDeletion, RESOURCE_PERMISSION, type ChangeResource, type ChangeType } from './rules.js';

export type { StoredChange } from './repository.js';

/** One change, as the area that made it describes it. */
export interface NewChange {
  organizationId: string;
  type: ChangeType;
  /** The user who made the change; null when no user did (the CLI, the service itself). */
  actorId: string | null;
  /**
   * The record after the change, as its routes answer it. For a deletion, the record as it was:
   * only its `id` is published, the rest says who may read the event.
   */
  data: object;
}

/** A recorded event, as the feed answers it and webhooks deliver it. */
export interface ChangeEvent {
  id: string;
  type: ChangeType;
  createdAt: string;
  actorId: string | null;
  data: unknown;
}

type Fields = Record<string, unknown>;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The user, project or client a record belongs to, which decide who reads its events as a User. */
function subjectsOf(resource: ChangeResource, record: Fields): { subjectUserId: string | null; projectId: string | null; clientId: string | null } {
  switch (resource) {
    case 'project':
      return { subjectUserId: null, projectId: text(record.id), clientId: null };
    case 'user':
      return { subjectUserId: text(record.id), projectId: null, clientId: null };
    case 'request':
      return { subjectUserId: text(record.createdBy), projectId: null, clientId: null };
    case 'client':
      return { subjectUserId: null, projectId: null, clientId: text(record.id) };
    default:
      return { subjectUserId: text(record.userId), projectId: text(record.projectId), clientId: null };
  }
}

/**
 * Appends an event to the workspace's change feed, in the caller's transaction: it commits with the
 * change or not at all (docs/rules.md §6 Change feed). Its position in the feed is taken at commit.
 */
export async function recordChange(trx: Trx, change: NewChange): Promise<ChangeEvent> {
  const resource = CHANGE_TYPES[change.type];
  const record = change.data as Fields;
  const data = isDeletion(change.type) ? { id: record.id } : change.data;
  const event: ChangeEvent = { id: newId(), type: change.type, createdAt: nowIso(), actorId: change.actorId, data };
  await insertChange(trx, {
    id: event.id,
    organizationId: change.organizationId,
    type: change.type,
    resource,
    ...subjectsOf(resource, record),
    actorId: change.actorId,
    data: JSON.stringify(data),
    createdAt: event.createdAt,
  });
  return event;
}

/** Which events the actor reads: an Administrator every one, a User those of records they may read. */
function readerOf(actor: Actor): ChangeReader {
  if (actor.role === 'Administrator') return { all: true };
  const scopes = Object.entries(RESOURCE_PERMISSION).map(([resource, permission]) => ({
    resource: resource as ChangeResource,
    scope: readerScope(actor, permission),
  }));
  return { all: false, userId: actor.userId, scopes };
}

/** The feed's end: the position of the workspace's last event (0 before its first), where a new follower starts. */
export function feedEnd(db: Db, organizationId: string): Promise<number> {
  return headPosition(db, organizationId);
}

export interface ChangePage {
  events: StoredChange[];
  /** The cursor to continue from: after the last event answered, or the feed's end when none is left. */
  cursor: string;
  hasMore: boolean;
}

export const EXPIRED_CURSOR =
  'Events after this cursor were pruned (they are kept for the retention period, CHANGE_RETENTION_DAYS). ' +
  'Read the current state again from the listings (GET /activities, /projects, /users, …), then follow the feed ' +
  'from GET /api/changes without `after`: its last page\'s cursor is the current position.';

/**
 * GET /changes: the events after the cursor (from the oldest one kept without one), in commit order.
 * The feed's end is read first and only events at or before it are answered: every one of them is
 * committed, so a reader that continues from the cursor never skips an event nor sees one twice.
 */
export async function listChanges(db: Db, actor: Actor, query: { after?: number; limit: number }): Promise<ChangePage> {
  const { organizationId } = actor;
  const head = await headPosition(db, organizationId);
  if (query.after !== undefined && query.after > head) {
    throw invalid('/query/after', 'must be a cursor this feed gave (it is past the feed\'s end)');
  }
  let after = query.after;
  if (after === undefined) after = await prunedThrough(db, organizationId);
  const found = await readChanges(db, organizationId, readerOf(actor), { after, through: head, limit: query.limit + 1 });
  // Read after the events: pruning that ran before or during the read is seen here.
  if (query.after !== undefined && query.after < (await prunedThrough(db, organizationId))) throw gone(EXPIRED_CURSOR);
  const hasMore = found.length > query.limit;
  const events = hasMore ? found.slice(0, query.limit) : found;
  return { events, cursor: cursorOf(hasMore ? events[events.length - 1].position : head), hasMore };
}

/**
 * Every event of the workspace after one position and at or before another (the feed's end, read
 * before: every event up to it is committed), in commit order: the webhooks' queue follows the feed.
 */
export async function changesBetween(db: Db, organizationId: string, range: { after: number; through: number; limit: number }): Promise<StoredChange[]> {
  return readChanges(db, organizationId, { all: true }, range);
}

/** Deletes the events older than the retention, workspace by workspace; the number deleted. */
export async function pruneChanges(db: Db, retentionMs: number, now = Date.now()): Promise<number> {
  let pruned = 0;
  for (const { organizationId, through } of await expiredThrough(db, new Date(now - retentionMs).toISOString())) {
    pruned += await db.transaction().execute((trx) => pruneThrough(trx, organizationId, through));
  }
  return pruned;
}
