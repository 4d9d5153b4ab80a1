import type { Config } from '../../config.js';
import type { Db, Trx } from '../../db/database.js';
import { withConstraintProblems } from '../../db/errors.js';
import { lockRowForWrite } from '../../db/locks.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import { actorHolds } from '../../domain/policy.js';
import { assertCurrency } from '../../lib/currencies.js';
import { assertUsableDomain } from '../../lib/domains.js';
import { isEmail } from '../../lib/email.js';
import type { IsoWeek } from '../../lib/iso-weeks.js';
import { newId } from '../../lib/ids.js';
import { cleanName } from '../../lib/names.js';
import { nowIso } from '../../lib/time.js';
import { canonicalTimeZone } from '../../lib/time-zones.js';
import { accountOfEmail, mintApiKey } from '../access/index.js';
import { addFirstAdministrator } from '../users/index.js';
import {
  countOrganizationRows,
  deleteOrganization,
  deleteRetiredDomain,
  domainHolder,
  insertOrganization,
  listActiveWorkspacesOfAccount,
  reserveDomain,
  retireDomainsOf,
  retiredDomainReservedUntil,
  selectOrganization,
  selectWorkspaceByDomain,
  updateAutoLockedWeek,
  updateOrganization,
  type OrganizationChanges,
} from './repository.js';
import { assertCoreHours, domainTaken, ORGANIZATION_DEFAULTS, retiredUntil } from './rules.js';
import type { Organization, OrganizationUpdate } from './schemas.js';

/** The workspaces where the caller's account has an unarchived user, oldest first. */
/**
 * The workspaces of the caller's account; a caller without `account:workspaces` (a support session,
 * docs/rules.md §5) sees only the one it is bound to.
 */
export async function accountWorkspaces(db: Db, actor: Actor): Promise<{ active: true; domain: string; name: string }[]> {
  const only = actorHolds(actor, 'account:workspaces') ? undefined : actor.organizationId;
  const workspaces = await listActiveWorkspacesOfAccount(db, actor.accountId, only);
  return workspaces.map((workspace) => ({ active: true, domain: workspace.domain, name: workspace.name }));
}

export async function organization(db: Db, actor: Actor): Promise<Organization> {
  return selectOrganization(db, actor.organizationId);
}

/** The workspace a domain selects (tenancy asks it on a request its cache has not seen: no await of its own). */
export function findWorkspaceByDomain(db: Db, domain: string): Promise<Workspace | undefined> {
  return selectWorkspaceByDomain(db, domain);
}

/** A workspace's settings, for another area's work in it (the automatic lock, a report's rounding). */
export function getOrganization(db: Db, id: string): Promise<Organization> {
  return selectOrganization(db, id);
}

/** How many workspaces there are (the demo workspace is created only in an empty store). */
export function countOrganizations(db: Db): Promise<number> {
  return countOrganizationRows(db);
}

/** Records the last week the automatic timesheet lock closed, in the lock's transaction. */
export function recordAutoLockedWeek(trx: Trx, organizationId: string, week: IsoWeek): Promise<void> {
  return updateAutoLockedWeek(trx, organizationId, week);
}

/** Changes the given settings; nested objects are merged into the stored ones (422 for an invalid value). */
export async function changeOrganization(db: Db, actor: Actor, body: OrganizationUpdate): Promise<Organization> {
  const id = actor.organizationId;
  return db.transaction().execute(async (trx) => {
    const current = await selectOrganization(trx, id);
    const changes: OrganizationChanges = {};
    if (body.name !== undefined) changes.name = cleanName(body.name, '/body/name');
    if (body.currency !== undefined) {
      assertCurrency(body.currency, '/body/currency');
      changes.currency = body.currency;
    }
    if (body.notes !== undefined) changes.notes = body.notes;
    if (body.timeZone !== undefined) changes.timeZone = canonicalTimeZone(body.timeZone, '/body/timeZone');
    if (body.coreHours !== undefined) {
      const coreHours = { ...current.coreHours, ...body.coreHours };
      assertCoreHours(coreHours.start, coreHours.end);
      changes.coreHours = coreHours;
    }
    if (body.holidays !== undefined) changes.holidays = { ...(current.holidays ?? {}), ...body.holidays };
    if (body.rounding !== undefined) changes.rounding = { ...current.rounding!, ...body.rounding };
    if (body.lockingTimesheets !== undefined) {
      changes.lockingEnabled = body.lockingTimesheets.enabled;
      changes.unlockDuration = body.lockingTimesheets.unlockDuration;
    }
    await updateOrganization(trx, id, changes);
    return selectOrganization(trx, id);
  });
}

/**
 * Removes the workspace with all its data (accounts stay); answers where its people go next. Its
 * current and former domains stay reserved for RETIRED_DOMAIN_DAYS (docs/rules.md §2). The
 * workspace's row is locked first, so a concurrent rename either lands before (and its new domain
 * is retired too) or finds the workspace gone.
 */
export async function deleteWorkspace(
  db: Db,
  actor: Actor,
  workspace: Workspace,
  config: Config,
): Promise<{ domain: string; redirectUrl: string }> {
  await db.transaction().execute(async (trx) => {
    await lockRowForWrite(trx, 'organizations', actor.organizationId);
    const now = nowIso();
    await retireDomainsOf(trx, actor.organizationId, now, retiredUntil(now));
    await deleteOrganization(trx, actor.organizationId);
  });
  return { domain: workspace.domain, redirectUrl: `${config.publicUrl}/` };
}

/**
 * Moves the workspace to another domain. Former domains stay reserved to it (it may move back); a
 * domain another workspace holds or held is 409, also when two workspaces claim a free one at once.
 */
export async function renameWorkspace(db: Db, actor: Actor, requested: string): Promise<{ domain: string }> {
  const domain = requested.trim();
  assertUsableDomain(domain);
  const id = actor.organizationId;
  await withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        const holder = await domainHolder(trx, domain);
        if (holder !== undefined && holder !== id) throw domainTaken(domain);
        if (holder === undefined) {
          await assertNotRetired(trx, domain);
          await reserveDomain(trx, id, domain);
        }
        await updateOrganization(trx, id, { domain });
      }),
    { unique: () => domainTaken(domain) },
  );
  return { domain };
}

/**
 * 409 when the domain is a deleted workspace's, still reserved. Asked after organization_domains
 * (domainHolder): a deletion commits its retired domains and removes its domains at once, so a
 * claim that no longer sees the workspace's row sees the reservation.
 */
async function assertNotRetired(trx: Trx, domain: string): Promise<void> {
  const until = await retiredDomainReservedUntil(trx, domain, nowIso());
  if (until !== undefined) throw conflict(`The domain "${domain}" belonged to a deleted workspace and is reserved until ${until}.`);
}

/**
 * `timetrack domain release`: ends the reservation of a deleted workspace's domain at once, so a
 * workspace may take it. A domain a workspace holds or held is not released (it is not retired).
 */
export async function releaseRetiredDomain(db: Db, requested: string): Promise<{ domain: string; released: true }> {
  const domain = requested.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    if ((await domainHolder(trx, domain)) !== undefined) throw conflict(`The domain "${domain}" belongs to a workspace; only a deleted workspace's domain is released.`);
    if (!(await deleteRetiredDomain(trx, domain))) throw notFound(`reserved domain "${domain}"`);
    return { domain, released: true as const };
  });
}

export interface NewWorkspace {
  domain: string;
  name: string;
  adminEmail: string;
  adminName?: string;
  currency?: string;
  timeZone?: string;
}

export interface CreatedWorkspace {
  domain: string;
  organizationId: string;
  userId: string;
  apiKey: string;
}

/**
 * Creates a workspace with its first administrator and an API key for them, in one transaction.
 * Throws ApiError 422 for an invalid domain, name, email, currency or time zone, 409 for a taken domain.
 */
export async function createWorkspace(db: Db, input: NewWorkspace): Promise<CreatedWorkspace> {
  const domain = input.domain.trim().toLowerCase();
  assertUsableDomain(domain, '/domain');
  const name = cleanName(input.name, '/name');
  if (!isEmail(input.adminEmail)) throw invalid('/adminEmail', 'must be an email address');
  const currency = input.currency ?? ORGANIZATION_DEFAULTS.currency;
  assertCurrency(currency, '/currency');
  const timeZone = canonicalTimeZone(input.timeZone ?? ORGANIZATION_DEFAULTS.timeZone, '/timeZone');
  const organizationId = newId();
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        if ((await domainHolder(trx, domain)) !== undefined) throw domainTaken(domain);
        await assertNotRetired(trx, domain);
        await insertOrganization(trx, {
          id: organizationId,
          domain,
          name,
          currency,
          timeZone,
          coreHours: { ...ORGANIZATION_DEFAULTS.coreHours },
          rounding: { ...ORGANIZATION_DEFAULTS.rounding },
          lockingTimesheets: { ...ORGANIZATION_DEFAULTS.lockingTimesheets },
          onboarding: ORGANIZATION_DEFAULTS.onboarding,
          plan: ORGANIZATION_DEFAULTS.plan,
          createdAt: nowIso(),
        });
        const accountId = await accountOfEmail(trx, input.adminEmail);
        const userId = await addFirstAdministrator(trx, { organizationId, accountId, name: input.adminName?.trim() || null });
        const apiKey = await mintApiKey(trx, { organizationId, userId }, 'Created with the workspace');
        return { domain, organizationId, userId, apiKey: apiKey.key };
      }),
    // Another workspace took the domain (or its reservation) between the check and the insert.
    { unique: () => domainTaken(domain) },
  );
}
