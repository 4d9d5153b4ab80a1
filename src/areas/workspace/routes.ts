import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { operation } from '../../route-kit/schemas.js';
import { Organization, OrganizationDeleted, OrganizationSummary, OrganizationUpdate, RenameBody, RenameResult } from './schemas.js';
import { accountWorkspaces, changeOrganization, deleteWorkspace, organization, renameWorkspace } from './service.js';

const TAG = 'Workspace';

export const workspaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/organizations',
    {
      config: { permission: 'organization:read' },
      schema: operation({
        operationId: 'listOrganizations',
        tag: TAG,
        summary: 'Workspaces where the caller\'s account has an active user',
        description:
          'Any role. The workspaces (domain and name) where the account of the caller (one email) has an unarchived ' +
          'user, this one included. A support session (an impersonation, docs/rules.md §5) sees only the workspace ' +
          'it is bound to: the answer then lists this workspace alone.',
        response: Type.Array(OrganizationSummary),
      }),
    },
    async (request) => accountWorkspaces(app.db, request.actor),
  );

  app.get(
    '/organization',
    {
      config: { permission: 'organization:read' },
      schema: operation({
        operationId: 'getOrganization',
        tag: TAG,
        summary: 'The organization of this host',
        description: 'Any role. The organization selected by the Host header, with all its settings.',
        response: Type.Ref(Organization),
      }),
    },
    async (request) => organization(app.db, request.actor),
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
        errors: {
          403: 'Not an administrator',
          422:
            'Also: a `currency` that is no ISO 4217 code, a `timeZone` that names no IANA time zone, a `name` blank once ' +
            'trimmed, or `coreHours` whose `start` is not before its `end` (after merging, at /body/coreHours/start)',
        },
      }),
    },
    async (request) => changeOrganization(app.db, request.actor, request.body),
  );

  app.delete(
    '/organization',
    {
      config: { permission: 'organization:delete', changesIdentity: true },
      schema: operation({
        operationId: 'deleteOrganization',
        tag: TAG,
        summary: 'Delete the workspace and all its data',
        description:
          'Administrators only, and not with a support session (an impersonation, docs/rules.md §5): 403. Accounts ' +
          'stay; every record of the workspace is removed at once. Its current and former domains stay reserved for ' +
          '90 days (no other workspace may take them: 409), so old links and bookmarks never lead into another ' +
          'workspace; the operator command `timetrack domain release --domain D` frees one earlier.',
        response: OrganizationDeleted,
        errors: { 403: 'Not an administrator, or a support session' },
      }),
    },
    async (request) => deleteWorkspace(app.db, request.actor, request.workspace, app.config),
  );

  app.post(
    '/organization/rename',
    {
      config: { permission: 'organization:update', changesIdentity: true },
      schema: operation({
        operationId: 'renameOrganization',
        tag: TAG,
        summary: 'Move the workspace to another subdomain',
        description:
          'Administrators only. Takes effect at once: the old host then answers 404. Former domains stay reserved to this workspace.',
        body: RenameBody,
        response: RenameResult,
        errors: {
          403: 'Not an administrator',
          409: 'The domain is taken: held now or before by another workspace, or a deleted workspace\'s (reserved 90 days)',
          422:
            'Also: a `domain` that is not 3–63 characters of a-z, 0-9 and - (not starting or ending with -), a reserved ' +
            'one, or a punycode one (starting with "xn--": look-alike names are not accepted)',
        },
      }),
    },
    async (request) => renameWorkspace(app.db, request.actor, request.body.domain),
  );
};
