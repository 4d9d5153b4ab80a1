import { sql, type Selectable, type Updateable } from 'kysely';
import { dialectOf, type Db, type Trx } from '../../db/database.js';
import { fixedStatement } from '../../db/fixed-statement.js';
import type { WebhookDeliveriesTable, WebhooksTable } from '../../db/tables/webhooks.js';
import { fromDbBool, toDbBool } from '../../db/values.js';
import { newId } from '../../lib/ids.js';
import type { Webhook, WebhookDelivery } from './schemas.js';

export type WebhookRow = Selectable<WebhooksTable>;

export interface WebhookValues {
  url: string;
  events: string[];
  enabled: boolean;
  description: string | null;
}

export async function listWebhooks(db: Db, organizationId: string): Promise<Webhook[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toWebhook);
}

/** How many webhooks the workspace has (inside a transaction that locked the workspace, an exact count). */
export async function countWebhooks(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('held'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.held);
}

export async function findWebhookRow(db: Db, organizationId: string, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
}

export async function insertWebhook(
  trx: Trx,
  organizationId: string,
  values: WebhookValues,
  secret: { sealed: string; feedPosition: number },
  now: string,
): Promise<WebhookRow> {
  const enabled = toDbBool(values.enabled);
  const row = {
    id: newId(),
    organization_id: organizationId,
    url: values.url,
    events: JSON.stringify(values.events),
    enabled,
    description: values.description,
    secret_sealed: secret.sealed,
    previous_secret_sealed: null,
    previous_secret_expires_at: null,
    disabled_reason: null,
    next_seq: 0,
    feed_position: secret.feedPosition,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('webhooks').values(row).execute();
  return row satisfies WebhookRow;
}

export interface WebhookChanges extends Partial<WebhookValues> {
  disabledReason?: string | null;
  secretSealed?: string;
  previousSecretSealed?: string | null;
  previousSecretExpiresAt?: string | null;
  /** Where the webhook takes up the feed (set when it is enabled again: the events while it was off are not its). */
  feedPosition?: number;
}

/** Applies the changes; false when the workspace has no such webhook. */
export async function updateWebhook(db: Db, organizationId: string, id: string, changes: WebhookChanges, now: string): Promise<boolean> {
  const set: Updateable<WebhooksTable> = { updated_at: now };
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.events !== undefined) set.events = JSON.stringify(changes.events);
  if (changes.enabled !== undefined) set.enabled = toDbBool(changes.enabled);
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.disabledReason !== undefined) set.disabled_reason = changes.disabledReason;
  if (changes.secretSealed !== undefined) set.secret_sealed = changes.secretSealed;
  if (changes.previousSecretSealed !== undefined) set.previous_secret_sealed = changes.previousSecretSealed;
  if (changes.previousSecretExpiresAt !== undefined) set.previous_secret_expires_at = changes.previousSecretExpiresAt;
  if (changes.feedPosition !== undefined) set.feed_position = changes.feedPosition;
  const result = await db.updateTable('webhooks').set(set).where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteWebhook(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function toWebhook(row: WebhookRow): Webhook {
  const webhook: Webhook = {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    enabled: fromDbBool(row.enabled),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.description !== null) webhook.description = row.description;
  if (row.disabled_reason !== null) webhook.disabledReason = row.disabled_reason;
  if (row.previous_secret_expires_at !== null) webhook.previousSecretExpiresAt = row.previous_secret_expires_at;
  return webhook;
}

/* The deliveries: the queue (queue.ts) writes them, the worker (delivery.ts) claims and records them */

/*
 * The queue: the worker moves each enabled webhook along its workspace's change feed, queueing a
 * delivery for each event it takes (docs/webhooks.md "The queue").
 */

/** An enabled webhook whose workspace's feed has events after its position. */
export interface WebhookBehind {
  id: string;
  organizationId: string;
  domain: string;
  events: string;
  feedPosition: number;
  feedEnd: number;
  /** The feed's events through this position were pruned (change_feeds.pruned_through). */
  prunedThrough: number;
}

/** Enabled webhooks behind their workspace's feed (few: a workspace has a handful of webhooks), oldest position first. */
export async function webhooksBehind(db: Db, limit: number): Promise<WebhookBehind[]> {
  const rows = await db
    .selectFrom('webhooks as w')
    .innerJoin('change_feeds as f', 'f.organization_id', 'w.organization_id')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select(['w.id', 'w.organization_id', 'o.domain', 'w.events', 'w.feed_position', 'f.position', 'f.pruned_through'])
    .where('w.enabled', '=', toDbBool(true))
    .whereRef('w.feed_position', '<', 'f.position')
    .orderBy('w.feed_position')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organization_id,
    domain: row.domain,
    events: row.events,
    feedPosition: Number(row.feed_position),
    feedEnd: Number(row.position),
    prunedThrough: Number(row.pruned_through),
  }));
}

/**
 * Moves the webhook's position from `from` to `to`; false when it is no longer at `from` (another
 * instance queued these events first, or the webhook was disabled, re-enabled or deleted meanwhile).
 * The update holds the webhook's row to the end of the transaction, so two instances never queue the
 * same events.
 */
export async function moveFeedPosition(trx: Trx, webhookId: string, from: number, to: number): Promise<boolean> {
  const result = await trx
    .updateTable('webhooks')
    .set({ feed_position: to })
    .where('id', '=', webhookId)
    .where('feed_position', '=', from)
    .where('enabled', '=', toDbBool(true))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function workspaceOf(db: Db, organizationId: string): Promise<{ id: string; domain: string }> {
  return db.selectFrom('organizations').select(['id', 'domain']).where('id', '=', organizationId).executeTakeFirstOrThrow();
}

const INSERT_DELIVERY = fixedStatement(
  'insert into webhook_deliveries (id, organization_id, webhook_id, seq, event_id, event_type, body, status, attempts, first_attempt_at, ' +
    "next_attempt_at, locked_until, claim, finished_at, created_at) values (?, ?, ?, ?, ?, ?, ?, 'pending', 0, null, ?, null, null, null, ?)",
);

const PENDING = { status: 'pending', attempts: 0, first_attempt_at: null, locked_until: null, claim: null, finished_at: null } as const;

/**
 * Takes the webhook's next `count` delivery numbers, on SQLite. The update holds the webhook's row
 * until the transaction ends, so two transactions take numbers in the order they commit: a delivery
 * never overtakes one committed before it. PostgreSQL gives the numbers at COMMIT instead (migration 0013).
 */
async function takeSeqs(trx: Trx, webhookId: string, count: number): Promise<number> {
  const row = await trx
    .updateTable('webhooks')
    .set((eb) => ({ next_seq: eb('next_seq', '+', count) }))
    .where('id', '=', webhookId)
    .returning('next_seq')
    .executeTakeFirstOrThrow();
  return Number(row.next_seq) - count + 1;
}

export interface NewDelivery {
  organizationId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
  now: string;
}

/** Queues deliveries of one webhook, in this order, behind its others; answers their ids. */
export async function insertDeliveries(trx: Trx, webhookId: string, deliveries: NewDelivery[]): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const ids = deliveries.map(() => newId());
  if (dialectOf(trx) === 'postgres') {
    // One statement (a round trip) for them all; their numbers are given at COMMIT, in this order.
    const rows = deliveries.map(({ organizationId, eventId, eventType, body, now }, i) => ({
      ...PENDING,
      id: ids[i]!,
      organization_id: organizationId,
      webhook_id: webhookId,
      seq: null,
      event_id: eventId,
      event_type: eventType,
      body,
      next_attempt_at: now,
      created_at: now,
    }));
    await trx.insertInto('webhook_deliveries').values(rows).execute();
    return ids;
  }
  const first = await takeSeqs(trx, webhookId, deliveries.length);
  for (const [i, { organizationId, eventId, eventType, body, now }] of deliveries.entries()) {
    await INSERT_DELIVERY(trx, [ids[i], organizationId, webhookId, first + i, eventId, eventType, body, now, now]);
  }
  return ids;
}

export async function insertDelivery(trx: Trx, delivery: NewDelivery): Promise<string> {
  const [id] = await insertDeliveries(trx, delivery.webhookId, [delivery]);
  return id!;
}

export async function findDeliveryRow(db: Db, webhookId: string, id: string) {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('webhook_id', '=', webhookId).executeTakeFirst();
}

/** The webhook's latest deliveries, newest first, each with its attempts. */
export async function listDeliveries(db: Db, webhookId: string, limit: number, onlyId?: string): Promise<WebhookDelivery[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
  if (onlyId !== undefined) query = query.where('id', '=', onlyId);
  const rows = await query.orderBy('seq', 'desc').limit(limit).execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    createdAt: row.created_at,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    finishedAt: row.finished_at,
    attempts: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => ({ at: attempt.attempted_at, statusCode: attempt.status_code, durationMs: attempt.duration_ms, error: attempt.error })),
  }));
}

/* Claiming and finishing deliveries (the workers) */

export interface ClaimedDelivery {
  id: string;
  organizationId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
  attempts: number;
  firstAttemptAt: string | null;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: string | null;
  claim: string;
}

export interface ClaimRequest {
  now: string;
  /** The lease: the claimed deliveries are held until then. */
  until: string;
  claim: string;
  /** Webhooks (runs) to take at most. */
  limit: number;
  /** A run's length at most: the first delivery and those after it. */
  runLength: number;
  /** Workspaces none of whose webhooks may be taken now (they hold their share of the worker). */
  skippedWorkspaces: string[];
  /** How many more runs of this workspace may be taken now. */
  roomOf: (organizationId: string) => number;
}

/**
 * Takes the due deliveries of up to `limit` enabled webhooks, at most `roomOf` a workspace: each
 * webhook's first unfinished one and the up to `runLength - 1` that follow it in order (a run,
 * delivered one after another), held until `until` under the claim `claim`; each run comes back in
 * its order. On PostgreSQL the
 * first ones are read FOR UPDATE SKIP LOCKED, so instances claiming at once pass each other by (and
 * the one holding a webhook's first delivery is the only one taking its followers); the conditional
 * updates (free or lease expired) are what make a claim exclusive on either store.
 */
export async function claimDueDeliveries(db: Db, request: ClaimRequest): Promise<ClaimedDelivery[][]> {
  const { now, until, claim, limit, runLength } = request;
  const postgres = dialectOf(db) === 'postgres';
  return db.transaction().execute(async (trx) => {
    // Driven by the enabled webhooks, each probing the index of pending deliveries for its first
    // one: the work is one probe a webhook however long a backlog is (a scan of the due deliveries
    // that skipped all but each webhook's first read the whole backlog on every pass).
    let query = trx
      .selectFrom('webhooks as w')
      .innerJoin('webhook_deliveries as d', (join) =>
        join.on((eb) =>
          eb(
            'd.id',
            '=',
            eb
              .selectFrom('webhook_deliveries as e')
              .select('e.id')
              .whereRef('e.webhook_id', '=', 'w.id')
              // A literal, not a parameter: only then may the planner take the partial index of pending ones.
              .where('e.status', '=', sql.lit('pending'))
              .orderBy('e.seq')
              .limit(1),
          ),
        ),
      )
      .select([
        'd.id',
        'd.seq',
        'd.organization_id',
        'd.webhook_id',
        'd.event_id',
        'd.event_type',
        'd.body',
        'd.attempts',
        'd.first_attempt_at',
        'w.url',
        'w.secret_sealed',
        'w.previous_secret_sealed',
        'w.previous_secret_expires_at',
      ])
      .where('w.enabled', '=', toDbBool(true))
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
      .orderBy('d.next_attempt_at')
      .limit(limit);
    if (request.skippedWorkspaces.length > 0) query = query.where('d.organization_id', 'not in', request.skippedWorkspaces);
    if (postgres) query = query.forUpdate('d').skipLocked();
    const runs: ClaimedDelivery[][] = [];
    const taken = new Map<string, number>();
    for (const row of await query.execute()) {
      const ofWorkspace = taken.get(row.organization_id) ?? 0;
      if (ofWorkspace >= request.roomOf(row.organization_id)) continue;
      const result = await trx
        .updateTable('webhook_deliveries')
        .set({ locked_until: until, claim })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) continue;
      taken.set(row.organization_id, ofWorkspace + 1);
      const webhook = { url: row.url, secretSealed: row.secret_sealed, previousSecretSealed: row.previous_secret_sealed, previousSecretExpiresAt: row.previous_secret_expires_at, claim };
      const followers = await claimFollowers(trx, row.webhook_id, row.seq, now, until, runLength - 1, claim);
      runs.push([row, ...followers].map((delivery) => ({ ...deliveryOf(delivery), ...webhook })));
    }
    return runs;
  });
}

type DeliveryRow = Pick<Selectable<WebhookDeliveriesTable>, 'id' | 'organization_id' | 'webhook_id' | 'event_id' | 'event_type' | 'body' | 'attempts' | 'first_attempt_at'>;

const deliveryOf = (row: DeliveryRow) => ({
  id: row.id,
  organizationId: row.organization_id,
  webhookId: row.webhook_id,
  eventId: row.event_id,
  eventType: row.event_type,
  body: row.body,
  attempts: row.attempts,
  firstAttemptAt: row.first_attempt_at,
});

/** Claims the pending deliveries right after `seq` of the webhook, in order, up to the first that is not free and due. */
async function claimFollowers(trx: Trx, webhookId: string, seq: number, now: string, until: string, count: number, claim: string): Promise<DeliveryRow[]> {
  const next = await trx
    .selectFrom('webhook_deliveries')
    .select(['id', 'organization_id', 'webhook_id', 'event_id', 'event_type', 'body', 'attempts', 'first_attempt_at', 'next_attempt_at', 'locked_until'])
    .where('webhook_id', '=', webhookId)
    .where('status', '=', sql.lit('pending'))
    .where('seq', '>', seq)
    .orderBy('seq')
    .limit(count)
    .execute();
  const free = (row: (typeof next)[number]) => row.next_attempt_at <= now && (row.locked_until === null || row.locked_until <= now);
  const stop = next.findIndex((row) => !free(row));
  const run = stop === -1 ? next : next.slice(0, stop);
  if (run.length === 0) return [];
  const taken = await trx
    .updateTable('webhook_deliveries')
    .set({ locked_until: until, claim })
    .where(
      'id',
      'in',
      run.map((row) => row.id),
    )
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning('id')
    .execute();
  const ids = new Set(taken.map((row) => row.id));
  const gap = run.findIndex((row) => !ids.has(row.id));
  if (gap === -1) return run;
  // One was taken meanwhile by another claim: the run ends before it, and those after it go back.
  await releaseDeliveries(trx, run.slice(gap).filter((row) => ids.has(row.id)).map((row) => row.id), claim);
  return run.slice(0, gap);
}

/** Gives back deliveries of a run that were not attempted (the run stopped at a failure or its time ran out). */
export async function releaseDeliveries(trx: Trx, ids: string[], claim: string): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('webhook_deliveries').set({ locked_until: null, claim: null }).where('id', 'in', ids).where('claim', '=', claim).execute();
}

export async function insertAttempt(
  db: Db,
  deliveryId: string,
  attempt: { at: string; statusCode: number | null; durationMs: number; error: string | null },
): Promise<void> {
  await db
    .insertInto('webhook_attempts')
    .values({
      id: newId(),
      delivery_id: deliveryId,
      attempted_at: attempt.at,
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      error: attempt.error,
    })
    .execute();
}

export interface Outcome {
  status: WebhookDeliveriesTable['status'];
  firstAttemptAt: string;
  nextAttemptAt: string | null;
  finishedAt: string | null;
}

/** Records the outcome of an attempt made under `claim`; false when the claim was lost (its lease expired and another took it). */
export async function finishAttempt(db: Db, id: string, claim: string, outcome: Outcome): Promise<boolean> {
  const set: Updateable<WebhookDeliveriesTable> = {
    status: outcome.status,
    first_attempt_at: outcome.firstAttemptAt,
    finished_at: outcome.finishedAt,
    locked_until: null,
    claim: null,
  };
  if (outcome.nextAttemptAt !== null) set.next_attempt_at = outcome.nextAttemptAt;
  const result = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ ...set, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('claim', '=', claim)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Disables a webhook the service gave up on; false when it was already disabled (then nobody is mailed twice). */
export async function disableWebhook(trx: Trx, webhookId: string, reason: string, now: string): Promise<boolean> {
  const result = await trx
    .updateTable('webhooks')
    .set({ enabled: toDbBool(false), disabled_reason: reason, updated_at: now })
    .where('id', '=', webhookId)
    .where('enabled', '=', toDbBool(true))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The unarchived administrators of a workspace, with their email addresses (a join on the users area's tables). */
export async function administratorsOf(db: Db, organizationId: string): Promise<Array<{ email: string; name: string | null }>> {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['accounts.email', 'users.name'])
    .where('users.organization_id', '=', organizationId)
    .where('users.role', '=', 'Administrator')
    .where('users.archived', '=', toDbBool(false))
    .orderBy('users.created_at')
    .execute();
}

/** Deletes deliveries (and their attempts) finished before `before`; answers how many. */
export async function pruneFinishedDeliveries(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('status', '!=', 'pending')
    .where('finished_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
