import type { Db } from '../../db/database.js';
import { countServiceMessagesSince, expireMessageCarrying, insertMessage, listOutbox, type NewMessage, type OutboxFilter, type OutboxMessage } from './repository.js';
import { normalizeEmail } from '../../lib/email.js';
import { subjectLine } from './rules.js';

export type { MessageKind, NewMessage, OutboxFilter, OutboxMessage } from './repository.js';

/**
 * Writes one outgoing message. Pass the transaction of the change that causes it, so the message
 * exists exactly when its cause does; the delivery worker sends it after the commit.
 */
export async function enqueueMessage(db: Db, message: NewMessage): Promise<string> {
  return insertMessage(db, { ...message, subject: subjectLine(message.subject) });
}

/**
 * How many messages of these kinds the service itself (outside any workspace: a workspace list)
 * wrote to an address since an instant.
 */
export function countRecentServiceMessages(db: Db, to: { address: string; kinds: string[]; since: string }): Promise<number> {
  return countServiceMessagesSince(db, to);
}

/**
 * Replaces, by EXPIRED_BODY, the body of the workspace's message that carries this secret (still
 * with an expiry): called in the transaction that uses the secret, so the text dies with it.
 */
export function expireMessageWith(db: Db, organizationId: string, secret: string): Promise<void> {
  return expireMessageCarrying(db, organizationId, secret);
}

/**
 * The messages of a workspace, to an address, or every one (a workspace list is mailed outside any
 * workspace), in creation order, as `timetrack outbox list` prints them.
 */
export function listMessages(db: Db, filter: OutboxFilter): Promise<OutboxMessage[]> {
  return listOutbox(db, { ...filter, ...(filter.to === undefined ? {} : { to: normalizeEmail(filter.to) }) });
}
