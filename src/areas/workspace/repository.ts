import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { OrganizationsTable } from '../../db/tables/organizations.js';
import { fromDbBool, fromJson, toDbBool } from '../../db/values.js';
import type { Workspace } from '../../domain/actor.js';
import { nowIso } from '../../lib/time.js';
import type { Organization } from './schemas.js';

type OrganizationRow = Selectable<OrganizationsTable>;

export async function findWorkspaceByDomain(db: Db, domain: string): Promise<Workspace | undefined> {
  return db
    .selectFrom('organizations')
    .select(['id', 'domain'])
    .where('domain', '=', domain)
    .executeTakeFirst();
}

export async function getOrganization(db: Db, id: string): Promise<Organization> {
  const row = await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return toOrganization(row);
}

export async function countOrganizations(db: Db): Promise<number> {
  const { count } = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function insertOrganization(db: Db, row: Insertable<OrganizationsTable>): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
  await db
    .insertInto('organization_domains')
    .values({ domain: row.domain, organization_id: row.id, created_at: row.created_at })
    .execute();
}

export async function updateOrganization(
  db: Db,
  id: string,
  changes: Updateable<OrganizationsTable>,
): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ ...changes, updated_at: nowIso() })
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

/** Removes the workspace; foreign keys cascade to every row that belongs to it. */
export async function deleteOrganization(db: Db, id: string): Promise<void> {
  await db.deleteFrom('organizations').where('id', '=', id).execute();
}

/** Workspaces where an account has an unarchived user, oldest first. */
export async function listActiveWorkspacesOfAccount(db: Db, accountId: string) {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['organizations.domain', 'organizations.name'])
    .where('users.account_id', '=', accountId)
    .where('users.archived', '=', toDbBool(false))
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
      mode: row.rounding_mode as 'NEAREST' | 'UP' | 'DOWN',
    },
    timeZone: row.time_zone,
  };
  if (row.holidays !== null) organization.holidays = fromJson<Record<string, unknown>>(row.holidays) ?? undefined;
  if (row.notes !== null) organization.notes = row.notes;
  return organization;
}

