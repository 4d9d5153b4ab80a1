import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { fixedStatement } from '../../db/fixed-statement.js';
import type { OrganizationsTable } from '../../db/tables/organizations.js';
import type { TimesheetLocksTable } from '../../db/tables/workflows.js';
import { fromDbBool, fromJson, toDbBool } from '../../db/values.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { IsoWeek } from '../../lib/iso-weeks.js';
import type { LockSettings } from './rules.js';
import type { TimesheetLock } from './schemas.js';

type LockRow = Selectable<TimesheetLocksTable>;

export async function findLockSettings(db: Db, organizationId: string): Promise<LockSettings> {
  const [row] = await FIND_LOCK_SETTINGS(db, [organizationId]);
  if (row === undefined) throw new Error(`no organization ${organizationId}`);
  return lockSettingsOf(row);
}

type LockSettingsRow = Pick<
  Selectable<OrganizationsTable>,
  'locking_enabled' | 'locking_time_zone' | 'time_zone' | 'unlock_duration' | 'lock_year' | 'lock_week'
>;

const LOCK_SETTINGS_COLUMNS = 'locking_enabled, locking_time_zone, time_zone, unlock_duration, lock_year, lock_week';

function lockSettingsOf(row: LockSettingsRow): LockSettings {
  return {
    enabled: fromDbBool(row.locking_enabled),
    timeZone: row.locking_time_zone || row.time_zone || 'UTC',
    unlockDuration: row.unlock_duration,
    locked: row.lock_year !== null && row.lock_week !== null ? { year: row.lock_year, week: row.lock_week } : null,
  };
}

const FIND_LOCK_SETTINGS = fixedStatement<LockSettingsRow>(`select ${LOCK_SETTINGS_COLUMNS} from organizations where id = ?`);

/**
 * The lock settings, and whether the user has any lock record at all: read on every write of time,
 * in one fixed statement. Without records, and without an automatic lock recorded, no week of the
 * user can be locked, and the writer need not work out which week the time falls in.
 */
export async function findLockContext(db: Db, organizationId: string, userId: string): Promise<LockSettings & { userHasLocks: boolean }> {
  const [row] = await FIND_LOCK_CONTEXT(db, [userId, organizationId]);
  if (row === undefined) throw new Error(`no organization ${organizationId}`);
  return { ...lockSettingsOf(row), userHasLocks: fromDbBool(row.user_has_locks) };
}

const FIND_LOCK_CONTEXT = fixedStatement<LockSettingsRow & { user_has_locks: boolean | number }>(
  `select ${LOCK_SETTINGS_COLUMNS}, exists (select 1 from timesheet_locks where user_id = ?) as user_has_locks from organizations where id = ?`,
);

/**
 * Creates or replaces the lock of one user and ISO week, in one statement that holds under
 * concurrency in both stores (ON CONFLICT on timesheet_locks_one_per_week): an existing record keeps
 * its id and created_at and takes the new unlocked_to and updated_at.
 */
export async function upsertLock(
  db: Db,
  lock: { organizationId: string; userId: string; week: IsoWeek; unlockedTo: string | null },
): Promise<TimesheetLock> {
  const now = nowIso();
  await db
    .insertInto('timesheet_locks')
    .values({
      id: newId(),
      organization_id: lock.organizationId,
      user_id: lock.userId,
      year: lock.week.year,
      week: lock.week.week,
      unlocked_to: lock.unlockedTo,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'year', 'week']).doUpdateSet((eb) => ({
        unlocked_to: eb.ref('excluded.unlocked_to'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  return (await findLockOfWeek(db, lock.userId, lock.week))!;
}

/** The lock record of one user and week (the timesheet_locks_one_per_week index). */
export async function findLockOfWeek(db: Db, userId: string, week: IsoWeek): Promise<TimesheetLock | undefined> {
  const row = (await FIND_LOCK_OF_WEEK(db, [userId, week.year, week.week]))[0];
  return row && toLock(row);
}

const FIND_LOCK_OF_WEEK = fixedStatement<LockRow>('select * from timesheet_locks where user_id = ? and year = ? and week = ?');

export async function findLock(db: Db, organizationId: string, lockId: string): Promise<TimesheetLock | undefined> {
  const row = await db.selectFrom('timesheet_locks').selectAll().where('id', '=', lockId).where('organization_id', '=', organizationId).executeTakeFirst();
  return row && toLock(row);
}

export async function deleteLock(db: Db, organizationId: string, lockId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('timesheet_locks')
    .where('id', '=', lockId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listLocks(
  db: Db,
  filter: { organizationId: string; userId?: string; year?: number },
): Promise<TimesheetLock[]> {
  let query = db.selectFrom('timesheet_locks').selectAll().where('organization_id', '=', filter.organizationId);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.year !== undefined) query = query.where('year', '=', filter.year);
  return (await query.orderBy('created_at').orderBy('id').execute()).map(toLock);
}

/** A user of the workspace (archived or not): locks may be set for any of them. */
export async function userExists(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The workspace's unarchived users with their email and preferences document, in creation order:
 * the recipients of a timesheet reminder (the caller filters on the preference).
 */
export async function activeUsersWithPreferences(db: Db, organizationId: string) {
  const rows = await db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .leftJoin('user_preferences', 'user_preferences.user_id', 'users.id')
    .select(['users.id', 'users.name', 'users.archived', 'accounts.email', 'user_preferences.document'])
    .where('users.organization_id', '=', organizationId)
    .where('users.archived', '=', toDbBool(false))
    .orderBy('users.created_at')
    .orderBy('users.id')
    .execute();
  return rows
    .filter((row) => !fromDbBool(row.archived))
    .map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      preferences: fromJson<Record<string, unknown>>(row.document ?? null) ?? {},
    }));
}

function toLock(row: LockRow): TimesheetLock {
  return {
    id: row.id,
    userId: row.user_id,
    year: row.year,
    week: row.week,
    unlockedTo: row.unlocked_to,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A workspace the timesheet schedule looks at: its lock settings, the end of its core hours and its domain. */
export interface ScheduledWorkspace {
  organizationId: string;
  domain: string;
  coreHoursEnd: string;
  settings: LockSettings;
}

/** The workspaces whose automatic timesheet lock is enabled: the only ones the schedule has work for. */
export async function workspacesWithAutoLock(db: Db): Promise<ScheduledWorkspace[]> {
  const rows = await db
    .selectFrom('organizations')
    .select(['id', 'domain', 'core_hours_end', 'locking_enabled', 'locking_time_zone', 'time_zone', 'unlock_duration', 'lock_year', 'lock_week'])
    .where('locking_enabled', '=', toDbBool(true))
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ organizationId: row.id, domain: row.domain, coreHoursEnd: row.core_hours_end, settings: lockSettingsOf(row) }));
}

/**
 * Takes a week's reminder for the workspace: true when this call inserted its row, false when one was
 * there (written before, or by a concurrent transaction that committed first: on PostgreSQL the
 * insert waits for it). The row commits with the messages or not at all.
 */
export async function claimReminderWeek(db: Db, organizationId: string, week: IsoWeek): Promise<boolean> {
  const inserted = await db
    .insertInto('timesheet_reminders')
    .values({ organization_id: organizationId, year: week.year, week: week.week, messages: 0, sent_at: nowIso() })
    .onConflict((oc) => oc.columns(['organization_id', 'year', 'week']).doNothing())
    .returning('year')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** How many messages a claimed week's reminder wrote. */
export async function recordReminderMessages(db: Db, organizationId: string, week: IsoWeek, messages: number): Promise<void> {
  await db
    .updateTable('timesheet_reminders')
    .set({ messages })
    .where('organization_id', '=', organizationId)
    .where('year', '=', week.year)
    .where('week', '=', week.week)
    .execute();
}
