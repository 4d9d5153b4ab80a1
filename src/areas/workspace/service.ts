import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { withConstraintProblems } from '../../db/errors.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { invalid } from '../../domain/errors.js';
import { actorHolds } from '../../domain/policy.js';
import { assertCurrency } from '../../lib/currencies.js';
import { assertUsableDomain } from '../../lib/domains.js';
import { isEmail } from '../../lib/email.js';
import { newId } from '../../lib/ids.js';
import { cleanName } from '../../lib/names.js';
import { nowIso } from '../../lib/time.js';
import { canonicalTimeZone } from '../../lib/time-zones.js';
import { createApiKey, findOrCreateAccount } from '../access/index.js';
import { createUser } from '../users/index.js';
import {
  deleteOrganization,
  domainHolder,
  getOrganization,
  insertOrganization,
  listActiveWorkspacesOfAccount,
  reserveDomain,
  updateOrganization,
  type OrganizationChanges,
} from './repository.js';
import { assertCoreHours, domainTaken, ORGANIZATION_DEFAULTS } from './rules.js';
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
  return getOrganization(db, actor.organizationId);
}

/** Changes the given settings; nested objects are merged into the stored ones (422 for an invalid value). */
export async function changeOrganization(db: Db, actor: Actor, body: OrganizationUpdate): Promise<Organization> {
  const id = actor.organizationId;
  return db.transaction().execute(async (trx) => {
    const current = await getOrganization(trx, id);
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
    return getOrganization(trx, id);
  });
}

/** Removes the workspace with all its data (accounts stay); answers where its people go next. */
export async function deleteWorkspace(
  db: Db,
  actor: Actor,
  workspace: Workspace,
  config: Config,
): Promise<{ domain: string; redirectUrl: string }> {
  await deleteOrganization(db, actor.organizationId);
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
        if (holder === undefined) await reserveDomain(trx, id, domain);
        await updateOrganization(trx, id, { domain });
      }),
    { unique: () => domainTaken(domain) },
  );
  return { domain };
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
        const accountId = await findOrCreateAccount(trx, input.adminEmail);
        const userId = await createUser(trx, {
          organizationId,
          accountId,
          role: 'Administrator',
          name: input.adminName?.trim() || null,
        });
        const apiKey = await createApiKey(trx, { organizationId, userId }, 'Created with the workspace');
        return { domain, organizationId, userId, apiKey: apiKey.key };
      }),
    // Another workspace took the domain (or its reservation) between the check and the insert.
    { unique: () => domainTaken(domain) },
  );
}
