import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { OrganizationsTable } from '../../db/tables/organizations.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../db/values.js';
import type { Workspace } from '../../domain/actor.js';
import type { IsoWeek } from '../../lib/iso-weeks.js';
import { nowIso } from '../../lib/time.js';
import type { Organization } from './schemas.js';

type OrganizationRow = Selectable<OrganizationsTable>;

type Rounding = NonNullable<Organization['rounding']>;

/** A new workspace's organization: its settings, every one given (the service applies the defaults). */
export interface NewOrganization {
  id: string;
  domain: string;
  name: string;
  currency: string;
  timeZone: string;
  coreHours: { start: string; end: string };
  rounding: Rounding;
  lockingTimesheets: { enabled: boolean; unlockDuration: number };
  onboarding: Record<string, { done: boolean; viewed: boolean }>;
  plan: string;
  createdAt: string;
}

/** Settings to change; a field left out keeps its value. */
export interface OrganizationChanges {
  name?: string;
  domain?: string;
  currency?: string;
  notes?: string;
  timeZone?: string;
  coreHours?: { start: string; end: string };
  holidays?: Record<string, unknown>;
  rounding?: Rounding;
  lockingEnabled?: boolean;
  unlockDuration?: number;
}

export interface WorkspaceSummary {
  domain: string;
  name: string;
}

export async function selectWorkspaceByDomain(db: Db, domain: string): Promise<Workspace | undefined> {
  return db
    .selectFrom('organizations')
    .select(['id', 'domain'])
    .where('domain', '=', domain)
    .executeTakeFirst();
}

export async function selectOrganization(db: Db, id: string): Promise<Organization> {
  const row = await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return toOrganization(row);
}

export async function countOrganizationRows(db: Db): Promise<number> {
  const { count } = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Inserts the organization and reserves its domain. */
export async function insertOrganization(db: Db, organization: NewOrganization): Promise<void> {
  const { createdAt } = organization;
  await db
    .insertInto('organizations')
    .values({
      id: organization.id,
      domain: organization.domain,
      name: organization.name,
      currency: organization.currency,
      time_zone: organization.timeZone,
      core_hours_start: organization.coreHours.start,
      core_hours_end: organization.coreHours.end,
      rounding_enabled: toDbBool(organization.rounding.enabled),
      rounding_interval: organization.rounding.interval,
      rounding_mode: organization.rounding.mode,
      locking_enabled: toDbBool(organization.lockingTimesheets.enabled),
      locking_time_zone: null,
      unlock_duration: organization.lockingTimesheets.unlockDuration,
      lock_year: null,
      lock_week: null,
      holidays: null,
      notes: null,
      onboarding: toJson(organization.onboarding),
      plan: organization.plan,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  await db
    .insertInto('organization_domains')
    .values({ domain: organization.domain, organization_id: organization.id, created_at: createdAt })
    .execute();
}

/** Applies the changes and stamps updated_at (also when there are none). */
export async function updateOrganization(db: Db, id: string, changes: OrganizationChanges): Promise<void> {
  const set: Updateable<OrganizationsTable> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.domain !== undefined) set.domain = changes.domain;
  if (changes.currency !== undefined) set.currency = changes.currency;
  if (changes.notes !== undefined) set.notes = changes.notes;
  if (changes.timeZone !== undefined) set.time_zone = changes.timeZone;
  if (changes.coreHours !== undefined) {
    set.core_hours_start = changes.coreHours.start;
    set.core_hours_end = changes.coreHours.end;
  }
  if (changes.holidays !== undefined) set.holidays = toJson(changes.holidays);
  if (changes.rounding !== undefined) {
    set.rounding_enabled = toDbBool(changes.rounding.enabled);
    set.rounding_interval = changes.rounding.interval;
    set.rounding_mode = changes.rounding.mode;
  }
  if (changes.lockingEnabled !== undefined) set.locking_enabled = toDbBool(changes.lockingEnabled);
  if (changes.unlockDuration !== undefined) set.unlock_duration = changes.unlockDuration;
  await db
    .updateTable('organizations')
    .set({ ...set, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

/** The workspace that holds or once held a domain, if any. */
export async function domainHolder(db: Db, domain: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('organization_domains')
    .select('organization_id')
    .where('domain', '=', domain)
    .executeTakeFirst();
  return row?.organization_id;
}

export async function reserveDomain(db: Db, organizationId: string, domain: string): Promise<void> {
  await db
    .insertInto('organization_domains')
    .values({ domain, organization_id: organizationId, created_at: nowIso() })
    .execute();
}

/**
 * Keeps every domain the workspace holds or held (organization_domains) reserved until `until`, in
 * retired_domains, which no foreign key ties to the workspace: call before deleting it, in the same
 * transaction. A domain retired before (then claimed again once its reservation ended) takes the new dates.
 */
export async function retireDomainsOf(db: Db, organizationId: string, now: string, until: string): Promise<void> {
  await db
    .insertInto('retired_domains')
    .columns(['domain', 'retired_at', 'reserved_until'])
    .expression((eb) =>
      eb
        .selectFrom('organization_domains')
        .select((inner) => ['domain', inner.val(now).as('retired_at'), inner.val(until).as('reserved_until')])
        .where('organization_id', '=', organizationId),
    )
    .onConflict((conflict) =>
      conflict.column('domain').doUpdateSet((eb) => ({ retired_at: eb.ref('excluded.retired_at'), reserved_until: eb.ref('excluded.reserved_until') })),
    )
    .execute();
}

/** When a deleted workspace's domain is reserved until, if it still is at `now`. */
export async function retiredDomainReservedUntil(db: Db, domain: string, now: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('retired_domains')
    .select('reserved_until')
    .where('domain', '=', domain)
    .where('reserved_until', '>', now)
    .executeTakeFirst();
  return row?.reserved_until;
}

/** Ends the reservation of a deleted workspace's domain; true when there was one (expired or not). */
export async function deleteRetiredDomain(db: Db, domain: string): Promise<boolean> {
  const result = await db.deleteFrom('retired_domains').where('domain', '=', domain).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Removes the workspace; foreign keys cascade to every row that belongs to it. */
export async function deleteOrganization(db: Db, id: string): Promise<void> {
  await db.deleteFrom('organizations').where('id', '=', id).execute();
}

/** Workspaces where an account has an unarchived user, oldest first. */
/** The account's workspaces with an unarchived user of it; with `onlyOrganizationId`, at most that one. */
export async function listActiveWorkspacesOfAccount(db: Db, accountId: string, onlyOrganizationId?: string): Promise<WorkspaceSummary[]> {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['organizations.domain', 'organizations.name'])
    .where('users.account_id', '=', accountId)
    .where('users.archived', '=', toDbBool(false))
    .$if(onlyOrganizationId !== undefined, (query) => query.where('organizations.id', '=', onlyOrganizationId!))
    .orderBy('organizations.created_at')
    .orderBy('organizations.id')
    .execute();
}

export function toOrganization(row: OrganizationRow): Organization {
  const organization: Organization = {
    id: row.id,
    name: row.name,
    currency: row.currency,
    coreHours: { start: row.core_hours_start, end: row.core_hours_end },
    lockingTimesheets: {
      enabled: fromDbBool(row.locking_enabled),
      timeZone: row.locking_time_zone,
      unlockDuration: row.unlock_duration,
      week: row.lock_week,
      year: row.lock_year,
    },
    onboarding: fromJson<NonNullable<Organization['onboarding']>>(row.onboarding) ?? undefined,
    plan: row.plan,
    rounding: {
      enabled: fromDbBool(row.rounding_enabled),
      interval: row.rounding_interval,
      mode: row.rounding_mode as Rounding['mode'],
    },
    timeZone: row.time_zone,
  };
  if (row.holidays !== null) organization.holidays = fromJson<Record<string, unknown>>(row.holidays) ?? undefined;
  if (row.notes !== null) organization.notes = row.notes;
  return organization;
}

/** Stores the last week the automatic timesheet lock closed (lockingTimesheets.year/week). */
export async function updateAutoLockedWeek(db: Db, organizationId: string, week: IsoWeek): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ lock_year: week.year, lock_week: week.week, updated_at: nowIso() })
    .where('id', '=', organizationId)
    .execute();
}
