import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { EXPIRED_BODY } from './rules.js';

/** The kinds of message the service sends (docs/rules.md §6); more join as their causes are built. */
export type MessageKind = 'invitation' | 'timesheetReminder' | 'supportSignIn' | (string & {});

export interface NewMessage {
  /** The workspace the message belongs to; null for mail outside any workspace (e.g. the support address). */
  organizationId: string | null;
  to: string;
  kind: MessageKind;
  subject: string;
  /** Plain text. */
  body: string;
  /**
   * When the body carries a secret (a one-time sign-in link): the end of its life. The body is
   * kept until then only (expireMessages), or until the secret is used (expireMessageWith).
   */
  expiresAt?: string;
}

/** A message as `timetrack outbox list` prints it (docs/rules.md §1). */
export interface OutboxMessage {
  id: string;
  to: string;
  kind: string;
  subject: string;
  body: string;
  createdAt: string;
  sentAt: string | null;
}

/** Stores one outgoing message, unsent; answers its id. */
export async function insertMessage(db: Db, message: NewMessage): Promise<string> {
  const id = newId();
  await db
    .insertInto('outbox')
    .values({
      id,
      organization_id: message.organizationId,
      to_address: message.to,
      kind: message.kind,
      subject: message.subject,
      body: message.body,
      created_at: nowIso(),
      sent_at: null,
      attempts: 0,
      last_error: null,
      locked_until: null,
      expires_at: message.expiresAt ?? null,
    })
    .execute();
  return id;
}

/**
 * How many messages of these kinds the service itself (outside any workspace: a workspace list)
 * wrote to an address since an instant.
 */
export async function countServiceMessagesSince(db: Db, to: { address: string; kinds: string[]; since: string }): Promise<number> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('organization_id', 'is', null)
    .where('created_at', '>', to.since)
    .where('to_address', '=', to.address)
    .where('kind', 'in', to.kinds)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Replaces the body of every message whose secret has expired at `now` by EXPIRED_BODY (the
 * delivery worker runs it before each pass, so an expired link is never sent either).
 */
export async function expireMessages(db: Db, now: string): Promise<number> {
  const result = await db
    .updateTable('outbox')
    .set({ body: EXPIRED_BODY, expires_at: null })
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Replaces, by EXPIRED_BODY, the body of the workspace's message that carries this secret (still with an expiry). */
export async function expireMessageCarrying(db: Db, organizationId: string, secret: string): Promise<void> {
  const pattern = `%${secret.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  await db
    .updateTable('outbox')
    .set({ body: EXPIRED_BODY, expires_at: null })
    .where('organization_id', '=', organizationId)
    .where('expires_at', 'is not', null)
    .where(sql<boolean>`body like ${pattern} escape '\\'`)
    .execute();
}

/** Which messages to list: a workspace's, an address's, both, or (neither given) every one. */
export interface OutboxFilter {
  organizationId?: string;
  /** A normalized address (lib/email.ts). */
  to?: string;
}

/** The messages the filter selects, in creation order. */
export async function listOutbox(db: Db, filter: OutboxFilter): Promise<OutboxMessage[]> {
  let query = db.selectFrom('outbox').select(['id', 'to_address', 'kind', 'subject', 'body', 'created_at', 'sent_at']);
  if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId);
  if (filter.to !== undefined) query = query.where('to_address', '=', filter.to);
  const rows = await query
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    kind: row.kind,
    subject: row.subject,
    body: row.body,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  }));
}

/** Unsent messages due for an attempt at `now`: not held by another sender or by a retry backoff. */
export async function dueMessageIds(db: Db, now: string, maxAttempts: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('outbox')
    .select('id')
    .where('sent_at', 'is', null)
    .where('attempts', '<', maxAttempts)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Claims one message for a delivery attempt until `until`: a conditional update that only one
 * sender can win, in either store, so a message is never handed to two senders at once.
 * Answers the message when this caller won it.
 */
export async function claimMessage(db: Db, id: string, now: string, until: string) {
  const result = await db
    .updateTable('outbox')
    .set({ locked_until: until })
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return db
    .selectFrom('outbox')
    .select(['id', 'organization_id', 'to_address', 'kind', 'subject', 'body', 'attempts'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export async function markSent(db: Db, id: string, at: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set((eb) => ({ sent_at: at, locked_until: null, last_error: null, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Records a failed attempt; the message is held until `retryAt` (the backoff), then tried again. */
export async function markFailed(db: Db, id: string, error: string, retryAt: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set((eb) => ({ last_error: error, locked_until: retryAt, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export const KEPT_NOTE = 'SMTP_URL is not set: kept in the outbox';

/**
 * Without SMTP: messages not yet reported, each claimed once (by marking last_error) so every
 * message is logged exactly once, whichever process sees it first. They stay unsent, and are
 * delivered as usual once SMTP_URL is set.
 */
export async function takeUnreportedMessages(db: Db, limit: number) {
  const candidates = await db
    .selectFrom('outbox')
    .select(['id', 'organization_id', 'to_address', 'kind'])
    .where('sent_at', 'is', null)
    .where('attempts', '=', 0)
    .where('last_error', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  const taken = [];
  for (const message of candidates) {
    const result = await db
      .updateTable('outbox')
      .set({ last_error: KEPT_NOTE })
      .where('id', '=', message.id)
      .where('last_error', 'is', null)
      .where('sent_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) taken.push(message);
  }
  return taken;
}
