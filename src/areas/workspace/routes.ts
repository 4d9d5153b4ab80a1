import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { isUniqueViolation } from '../../db/errors.js';
import { toDbBool, toJson } from '../../db/values.js';
import type { Updateable } from 'kysely';
import type { OrganizationsTable } from '../../db/tables/organizations.js';
import { operation } from '../../http/schemas.js';
import { cleanName } from '../../lib/names.js';
import { listActiveWorkspacesOfAccount, deleteOrganization, domainHolder, getOrganization, reserveDomain, updateOrganization } from './repository.js';
import { assertCurrency } from '../../lib/currencies.js';
import { assertUsableDomain } from '../../lib/domains.js';
import { canonicalTimeZone } from '../../lib/time-zones.js';
import { assertCoreHours, domainTaken } from './rules.js';
import { Organization, OrganizationDeleted, OrganizationSummary, OrganizationUpdate, RenameBody, RenameResult } from './schemas.js';

const TAG = 'Workspace';

export const workspaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/organizations',
    {
      schema: operation({
        operationId: 'listOrganizations',
        tag: TAG,
        summary: 'Workspaces where the caller\'s account has an active user',
        response: Type.Array(OrganizationSummary),
      }),
    },
    async (request) => {
      const rows = await listActiveWorkspacesOfAccount(app.db, request.actor.accountId);
      return rows.map((row) => ({ active: true, domain: row.domain, name: row.name }));
    },
  );

  app.get(
    '/organization',
    {
      schema: operation({
        operationId: 'getOrganization',
        tag: TAG,
        summary: 'The organization of this host',
        response: Type.Ref(Organization),
      }),
    },
    async (request) => getOrganization(app.db, request.workspace.id),
  );

  app.put(
    '/organization',
    {
      config: { permission: 'organization:update' },
      schema: operation({
        operationId: 'updateOrganization',
        tag: TAG,
        summary: 'Change organization settings',
        description: 'Administrators only. Nested objects are merged into the stored ones.',
        body: OrganizationUpdate,
        response: Type.Ref(Organization),
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => {
      const body = request.body;
      const id = request.workspace.id;
      return app.db.transaction().execute(async (trx) => {
        const current = await getOrganization(trx, id);
        const changes: Updateable<OrganizationsTable> = {};
        if (body.name !== undefined) changes.name = cleanName(body.name, '/body/name');
        if (body.currency !== undefined) {
          assertCurrency(body.currency, '/body/currency');
          changes.currency = body.currency;
        }
        if (body.notes !== undefined) changes.notes = body.notes;
        if (body.timeZone !== undefined) changes.time_zone = canonicalTimeZone(body.timeZone, '/body/timeZone');
        if (body.coreHours !== undefined) {
          const coreHours = { ...current.coreHours, ...body.coreHours };
          assertCoreHours(coreHours.start, coreHours.end);
          changes.core_hours_start = coreHours.start;
          changes.core_hours_end = coreHours.end;
        }
        if (body.holidays !== undefined) changes.holidays = toJson({ ...(current.holidays ?? {}), ...body.holidays });
        if (body.rounding !== undefined) {
          const rounding = { ...current.rounding!, ...body.rounding };
          changes.rounding_enabled = toDbBool(rounding.enabled);
          changes.rounding_interval = rounding.interval;
          changes.rounding_mode = rounding.mode;
        }
        if (body.lockingTimesheets !== undefined) {
          const { enabled, unlockDuration } = body.lockingTimesheets;
          if (enabled !== undefined) changes.locking_enabled = toDbBool(enabled);
          if (unlockDuration !== undefined) changes.unlock_duration = unlockDuration;
        }
        await updateOrganization(trx, id, changes);
        return getOrganization(trx, id);
      });
    },
  );

  app.delete(
    '/organization',
    {
      config: { permission: 'organization:delete' },
      schema: operation({
        operationId: 'deleteOrganization',
        tag: TAG,
        summary: 'Delete the workspace and all its data',
        description: 'Administrators only. Accounts stay; every record of the workspace is removed at once.',
        response: OrganizationDeleted,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => {
      await deleteOrganization(app.db, request.workspace.id);
      return { domain: request.workspace.domain, redirectUrl: `${app.config.publicUrl}/` };
    },
  );

  app.post(
    '/organization/rename',
    {
      config: { permission: 'organization:update' },
      schema: operation({
        operationId: 'renameOrganization',
        tag: TAG,
        summary: 'Move the workspace to another subdomain',
        description:
          'Administrators only. Takes effect at once: the old host then answers 404. Former domains stay reserved to this workspace.',
        body: RenameBody,
        response: RenameResult,
        errors: { 403: 'Not an administrator', 409: 'The domain is taken' },
      }),
    },
    async (request) => {
      const domain = request.body.domain.trim();
      assertUsableDomain(domain);
      const { id } = request.workspace;
      try {
        await app.db.transaction().execute(async (trx) => {
          const holder = await domainHolder(trx, domain);
          if (holder !== undefined && holder !== id) throw domainTaken(domain);
          if (holder === undefined) await reserveDomain(trx, id, domain);
          await updateOrganization(trx, id, { domain });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw domainTaken(domain);
        throw error;
      }
      return { domain };
    },
  );
};
