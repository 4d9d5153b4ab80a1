import type { Config } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import type { Actor } from '../../../domain/actor.js';
import { notFound } from '../../../domain/errors.js';
import { nowIso } from '../../../lib/time.js';
import {
  deleteOtherSessions,
  deleteSession,
  findUserBySession,
  insertSession,
  listSessions,
  sessionOrigin,
  touchSession,
  type SessionHolder,
  type SessionRecord,
} from './session-repository.js';
import type { SignInMethod } from './session-rules.js';

const idleSince = (config: Config, now: string) => new Date(Date.parse(now) - config.sessionIdleSeconds * 1000).toISOString();

/** The caller's account's sessions that have not ended, the one in use marked `current` (docs/rules.md §7 Sessions). */
export async function ownSessions(db: Db, config: Config, actor: Actor): Promise<(SessionRecord & { current: boolean })[]> {
  const now = nowIso();
  const sessions = await listSessions(db, actor.accountId, now, idleSince(config, now));
  return sessions.map((session) => ({ ...session, current: session.id === actor.sessionId }));
}

/** Ends one of the account's sessions (404 for any other id); answers whether it was the one in use. */
export async function endSession(db: Db, actor: Actor, sessionId: string): Promise<{ current: boolean }> {
  if (!(await deleteSession(db, actor.accountId, sessionId))) throw notFound('session');
  return { current: sessionId === actor.sessionId };
}

/** Ends the session in use; with an API key there is none to end (keys are revoked with DELETE /api-keys/{id}). */
export async function signOut(db: Db, actor: Actor): Promise<void> {
  if (actor.sessionId !== undefined) await deleteSession(db, actor.accountId, actor.sessionId);
}

/**
 * Who a session token stands for in this workspace, found by its digest (authentication asks):
 * nobody once the session has ended or has been idle since `idleSince` (docs/rules.md §7 Sessions).
 */
export function holderOfSession(db: Db, organizationId: string, tokenHash: string, idleSince: string): Promise<SessionHolder | undefined> {
  return findUserBySession(db, organizationId, tokenHash, idleSince);
}

/** Records that a session was used: the idle timeout counts from here (kept to the minute by the caller). */
export function noteSessionUse(db: Db, sessionId: string, at: string): Promise<void> {
  return touchSession(db, sessionId, at);
}

/** Stores a new session of the token (by its digest) and answers its id: the end of every sign-in (sign-in/sign-in-flow.ts). */
export function beginSession(db: Db, session: Parameters<typeof insertSession>[1]): Promise<string> {
  return insertSession(db, session);
}

/** Ends every session of the account but the one kept (a changed password signs the others out). */
export function endOtherSessions(db: Db, accountId: string, keepSessionId: string | undefined): Promise<void> {
  return deleteOtherSessions(db, accountId, keepSessionId);
}

/** How and when a session began. */
export function originOfSession(db: Db, sessionId: string): Promise<{ method: SignInMethod; createdAt: string } | undefined> {
  return sessionOrigin(db, sessionId);
}
