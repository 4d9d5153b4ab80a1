import type { Db } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import type { Actor } from '../../domain/actor.js';
import { forbidden, notFound } from '../../domain/errors.js';
import { permits } from '../../domain/policy.js';
import { findUser, readPreferencesDocument, writePreferencesDocument } from './repository.js';
import { mergePreferences, toPreferences } from './rules.js';
import type { Preferences, PreferencesUpdate } from './schemas.js';

/** Preferences are the user's own (docs/rules.md §5): 404 for an unknown user, then 403 for anyone else, admins too. */
async function assertOwnPreferences(db: Db, actor: Actor, userId: string): Promise<void> {
  if (!(await findUser(db, actor.organizationId, userId))) throw notFound('user');
  if (!permits(actor, 'preferences:manage', { ownerId: userId })) {
    throw forbidden('Preferences can be read and changed only by the user themself.');
  }
}

export async function preferences(db: Db, actor: Actor, userId: string): Promise<Preferences> {
  await assertOwnPreferences(db, actor, userId);
  return toPreferences(await readPreferencesDocument(db, userId));
}

/** Merges the update deeply into the stored document and answers the whole merged document. */
export async function changePreferences(db: Db, actor: Actor, userId: string, update: PreferencesUpdate): Promise<Preferences> {
  await assertOwnPreferences(db, actor, userId);
  return db.transaction().execute(async (trx) => {
    // Serializes concurrent merges of one user's document: none of them loses another's change.
    await lockRowForWrite(trx, 'users', userId);
    const merged = mergePreferences(await readPreferencesDocument(trx, userId), update);
    await writePreferencesDocument(trx, userId, merged);
    return toPreferences(merged);
  });
}

/** The time zone a user chose in their preferences (canonical IANA name), or null when unset. */
export async function preferredTimeZone(db: Db, userId: string): Promise<string | null> {
  return toPreferences(await readPreferencesDocument(db, userId)).timeZone ?? null;
}
