import { conflict, forbidden, invalid } from '../../domain/errors.js';
import { holds, permits, SUPPORT_SESSION_DENIED, tokenKindAllows } from '../../domain/policy.js';
import { cleanName } from '../../lib/names.js';
import type { Actor, Role } from '../../domain/actor.js';
import { canonicalTimeZone } from '../../lib/time-zones.js';
import {
  CHANNEL_KEYS,
  DATE_TIME_FORMAT_KEYS,
  DESKTOP_KEYS,
  DURATION_FORMAT_KEYS,
  NOT_A_KIND,
  NOTIFICATION_KINDS,
  type Preferences,
  type PreferencesUpdate,
  type UserUpdate,
} from './schemas.js';

/** What an update changes on a user: the body's fields, cleaned. */
export interface UserChanges {
  name?: string;
  avatar?: string | null;
  phone?: string | null;
  title?: string | null;
  role?: Role;
  archived?: boolean;
}

/**
 * Who may change what on a user (docs/rules.md §5): administrators anything; a User only their own
 * name, avatar, phone and title. Sending role or archived at all is 403 for a User, even unchanged,
 * and sending role is 403 for a support session.
 */
export function assertMayUpdate(actor: Actor, targetId: string, body: UserUpdate): void {
  // Setting a role grants one: never with a support session (docs/rules.md §5), even unchanged.
  if (body.role !== undefined && !tokenKindAllows(actor.tokenKind, 'roles:grant')) throw forbidden(SUPPORT_SESSION_DENIED);
  if (holds(actor.role, 'users:manage')) return;
  if (!permits(actor, 'users:update', { ownerId: targetId })) throw forbidden('Only administrators can change another user.');
  if (body.role !== undefined || body.archived !== undefined) {
    throw forbidden('Only administrators can change role or archived.');
  }
}

/** An optional text field: trimmed; blank clears it (null). */
function optionalText(value: string | null): string | null {
  if (value === null) return null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** The changes a valid update body makes, cleaned (422 for a blank name). */
export function userChanges(body: UserUpdate): UserChanges {
  const changes: UserChanges = {};
  if (body.name !== undefined) changes.name = cleanName(body.name, '/body/name');
  if (body.avatar !== undefined) changes.avatar = optionalText(body.avatar);
  if (body.phone !== undefined) changes.phone = optionalText(body.phone);
  if (body.title !== undefined) changes.title = optionalText(body.title);
  if (body.role !== undefined) changes.role = body.role;
  if (body.archived !== undefined) changes.archived = body.archived;
  return changes;
}

export const lastAdmin = (action: string) =>
  conflict(`The workspace must keep an active administrator: the last one cannot be ${action}.`);

/** Whether the user counts toward the administrator the workspace must keep: role Administrator, unarchived. */
export const isActiveAdmin = (user: { role: string; archived: boolean }): boolean =>
  user.role === 'Administrator' && !user.archived;

/**
 * How a change would take an active administrator away: 'demoted', 'archived' or 'deleted'; undefined
 * when the user is not one or stays one. Whether another remains is the service's question.
 */
export function adminRemoval(
  target: { role: string; archived: boolean },
  after: { role: string; archived: boolean } | 'deleted',
): 'demoted' | 'archived' | 'deleted' | undefined {
  if (!isActiveAdmin(target)) return undefined;
  if (after === 'deleted') return 'deleted';
  if (isActiveAdmin(after)) return undefined;
  return after.role !== 'Administrator' ? 'demoted' : 'archived';
}

/* Preferences */

/** The canonical form of one BCP 47 language tag, or 422. */
export function canonicalLocale(locale: string, pointer: string): string {
  if (/^[A-Za-z0-9]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(locale)) {
    try {
      const canonical = Intl.getCanonicalLocales(locale);
      if (canonical.length === 1) return canonical[0];
    } catch {
      // falls through to the 422 below
    }
  }
  throw invalid(pointer, 'must be a BCP 47 language tag such as en-US');
}

type Doc = Record<string, unknown>;

const objectAt = (doc: Doc, key: string): Doc => {
  const value = doc[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Doc) : {};
};

/** Known keys of a given object merged over the stored one; unknown keys are ignored. */
function mergeKnown(stored: Doc, given: Doc, keys: readonly string[]): Doc {
  const merged = { ...stored };
  for (const key of keys) if (given[key] !== undefined) merged[key] = given[key];
  return merged;
}

/**
 * The stored document with an update merged in deeply (422 for a bad locale, time zone or
 * notification kind): a key left out keeps its value, so one notification flag can change alone.
 */
export function mergePreferences(stored: Doc, update: PreferencesUpdate): Doc {
  const doc: Doc = { ...stored };
  if (update.locale !== undefined) doc.locale = update.locale === null ? null : canonicalLocale(update.locale, '/body/locale');
  if (update.timeZone !== undefined) {
    doc.timeZone = update.timeZone === null ? null : canonicalTimeZone(update.timeZone, '/body/timeZone');
  }
  if (update.dateTimeFormat !== undefined) {
    doc.dateTimeFormat = mergeKnown(objectAt(doc, 'dateTimeFormat'), update.dateTimeFormat, DATE_TIME_FORMAT_KEYS);
  }
  if (update.durationFormat !== undefined) {
    doc.durationFormat = mergeKnown(objectAt(doc, 'durationFormat'), update.durationFormat, DURATION_FORMAT_KEYS);
  }
  if (update.desktop !== undefined) doc.desktop = mergeKnown(objectAt(doc, 'desktop'), update.desktop, DESKTOP_KEYS);
  if (update.notifications !== undefined) {
    const notifications = { ...objectAt(doc, 'notifications') };
    for (const [kind, channels] of Object.entries(update.notifications as Record<string, Doc | undefined>)) {
      if (!(NOTIFICATION_KINDS as readonly string[]).includes(kind)) {
        throw invalid(`/body/notifications/${kind}`, NOT_A_KIND);
      }
      if (channels !== undefined) notifications[kind] = mergeKnown(objectAt(notifications, kind), channels, CHANNEL_KEYS);
    }
    doc.notifications = notifications;
  }
  return doc;
}

/** The document as the API answers it: every field present, null or {} when unset. */
export function toPreferences(doc: Doc): Preferences {
  return {
    locale: typeof doc.locale === 'string' ? doc.locale : null,
    timeZone: typeof doc.timeZone === 'string' ? doc.timeZone : null,
    dateTimeFormat: objectAt(doc, 'dateTimeFormat'),
    durationFormat: objectAt(doc, 'durationFormat'),
    desktop: objectAt(doc, 'desktop'),
    notifications: objectAt(doc, 'notifications'),
  };
}
