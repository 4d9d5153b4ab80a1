import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import type { Permission } from '../../domain/policy.js';
import type { Workspace } from '../../domain/actor.js';
import { operation } from '../../route-kit/schemas.js';
import type { RequestNotice } from './request-mail.js';
import {
  AssignmentBody,
  AssignResolveBody,
  MemberParams,
  ProjectParams,
  RequestParams,
  ResolveBody,
  RoleChangeBody,
  RoleChangeRequestCreated,
  WeekParams,
  WorkflowRequest,
  WorkflowRequestDetail,
  WorkflowRequestMap,
  type RequestType,
} from './schemas.js';
import {
  createAssignmentRequest,
  createProjectAssignmentRequest,
  createRoleChangeRequest,
  createTimesheetRequest,
  resolveRequest,
  workflowRequest,
  workflowRequests,
} from './service.js';

const TAG = 'Requests';

const CREATED =
  'Any user. The request starts PENDING; administrators resolve it with the matching PUT route. In the same ' +
  'transaction a `requestCreated` message is written to each unarchived administrator other than the caller whose ' +
  'preference `notifications.requestCreated.email` is not false (docs/rules.md §6 Requests).';
const RESOLVE =
  'Administrators only (403). Only a PENDING request can be resolved (409 otherwise; of two concurrent resolutions ' +
  'exactly one wins). `status` is RESOLVED or REJECTED (422 otherwise). A request of another kind is 404 here. ' +
  'RESOLVED applies the effect and the status change in one transaction: if the effect cannot be applied nothing ' +
  'changes and the request stays PENDING. REJECTED changes nothing else. resolvedAt and resolvedBy are set. Either ' +
  'status writes, in the same transaction, a `requestResolved` message to the user who made the request, unless they ' +
  'are archived or their preference `notifications.requestResolved.email` is false (an impersonation request has no ' +
  'such user).';
const NOT_FOR_SUPPORT =
  'Not with a support session (an impersonation, docs/rules.md §5): 403, whatever the status sent, since ' +
  'resolving this kind grants a role or issues a sign-in.';
const RESOLVE_ERRORS = { 403: 'Not an administrator', 404: 'No request of this kind with this id', 409: 'The request is not PENDING' };

export const requestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** What a new request's mail needs: the configuration and the request's workspace. */
  const noticeOf = (request: { workspace: Workspace }): RequestNotice => ({ config: app.config, workspace: request.workspace });

  /** One resolve route per kind: same body rules, the kind's own effect. */
  const resolveRoute = (
    path: string,
    type: RequestType,
    spec: {
      operationId: string;
      summary: string;
      effect: string;
      body?: TSchema;
      errors?: Partial<Record<409 | 422, string>>;
      /** A kind whose resolution grants a role or issues a sign-in needs that permission too (a support session lacks it). */
      permission?: Extract<Permission, 'roles:grant' | 'sign-ins:issue'>;
    },
  ) =>
    app.put(
      path,
      {
        config: { permission: spec.permission ?? 'requests:resolve' },
        schema: operation({
          operationId: spec.operationId,
          tag: TAG,
          summary: spec.summary,
          description: `${RESOLVE}${spec.permission ? ` ${NOT_FOR_SUPPORT}` : ''}\n\nRESOLVED: ${spec.effect}`,
          params: RequestParams,
          body: (spec.body ?? ResolveBody) as typeof AssignResolveBody,
          response: Type.Ref(WorkflowRequest),
          errors: { ...RESOLVE_ERRORS, ...(spec.permission ? { 403: 'Not an administrator, or a support session' } : {}), ...spec.errors },
        }),
      },
      async (request) =>
        resolveRequest(app.db, request.actor, request.workspace, app.config, type, request.params.requestId, request.body),
    );

  app.get(
    '/requests',
    {
      config: { permission: 'requests:read' },
      schema: operation({
        operationId: 'listRequests',
        tag: TAG,
        summary: 'Workflow requests: an administrator\'s view of all, a User\'s own',
        description:
          'Beyond the reference. Each record carries its `type` (roleChange, assignment, projectAssignment, ' +
          'impersonation, timesheetUnlock, timesheetApproval) and its payload fields (projectId, memberId, role, ' +
          'userIds, year, week, projectIds). In creation order.',
        response: WorkflowRequestMap,
      }),
    },
    async (request) => {
      const requests = await workflowRequests(app.db, request.actor);
      return Object.fromEntries(requests.map((found) => [found.id, found]));
    },
  );

  app.get(
    '/requests/:requestId',
    {
      config: { permission: 'requests:read' },
      schema: operation({
        operationId: 'getRequest',
        tag: TAG,
        summary: 'One workflow request, with its type and payload',
        description: 'Beyond the reference. Administrators: any request of the workspace; a User: their own (others are 404).',
        params: RequestParams,
        response: Type.Ref(WorkflowRequestDetail),
      }),
    },
    async (request) => workflowRequest(app.db, request.actor, request.params.requestId),
  );

  app.post(
    '/requests/projects/:projectId/members/:memberId/role',
    {
      config: { permission: 'requests:create' },
      schema: operation({
        operationId: 'createRoleChangeRequest',
        tag: TAG,
        summary: 'Ask for a project member\'s role to change',
        description:
          `${CREATED} The project must be one the caller can see (administrators: any; a User: one they are an ` +
          'unarchived member of) and the member one of its members: 404 otherwise. The answer also holds projectId and role.',
        params: MemberParams,
        body: RoleChangeBody,
        response: RoleChangeRequestCreated,
      }),
    },
    async (request) => createRoleChangeRequest(app.db, request.actor, request.params, request.body.role, noticeOf(request)),
  );

  resolveRoute('/requests/:requestId/projects/members/role', 'roleChange', {
    operationId: 'resolveRoleChangeRequest',
    summary: 'Resolve a role-change request',
    effect: 'the member takes the requested role. 409 when the member no longer exists.',
    permission: 'roles:grant',
  });

  app.post(
    '/requests/projects/:projectId/members',
    {
      config: { permission: 'requests:create' },
      schema: operation({
        operationId: 'createAssignmentRequest',
        tag: TAG,
        summary: 'Ask for users to be assigned to a project',
        description:
          `${CREATED} The project must be one the caller can see (404 otherwise). userIds: a non-empty list of ` +
          'unarchived users of this workspace (422 at /body/userIds/{index} otherwise); repeats count once.',
        params: ProjectParams,
        body: AssignmentBody,
        response: Type.Ref(WorkflowRequest),
        errors: { 422: 'Also: an id in `userIds` that names no unarchived user of this workspace (at its index)' },
      }),
    },
    async (request) => createAssignmentRequest(app.db, request.actor, request.params.projectId, request.body.userIds, noticeOf(request)),
  );

  resolveRoute('/requests/:requestId/projects/members', 'assignment', {
    operationId: 'resolveAssignmentRequest',
    summary: 'Resolve a request to assign users to a project',
    effect:
      'each named user becomes a member of the project (role User, assignedBy the resolver). Existing memberships ' +
      'stay as they are; users archived or deleted since the request was made are skipped. 409 when the project no ' +
      'longer exists.',
  });

  app.post(
    '/requests/projects/request-assignment',
    {
      config: { permission: 'requests:create' },
      schema: operation({
        operationId: 'createProjectAssignmentRequest',
        tag: TAG,
        summary: 'Ask administrators to be assigned to projects',
        description: `${CREATED} No body: the administrator picks the projects when resolving.`,
        response: Type.Ref(WorkflowRequest),
      }),
    },
    async (request) => createProjectAssignmentRequest(app.db, request.actor, noticeOf(request)),
  );

  resolveRoute('/requests/:requestId/projects/assign', 'projectAssignment', {
    operationId: 'resolveProjectAssignmentRequest',
    summary: 'Resolve a project-assignment request',
    effect:
      'projectIds is required and non-empty, each a project of this workspace (422 otherwise; ignored for ' +
      'REJECTED). The requester becomes a member (role User, assignedBy the resolver) of each; existing memberships ' +
      'stay; a requester archived since gets none. The projects are recorded as the request\'s projectIds.',
    body: AssignResolveBody,
    errors: { 422: 'Also: `projectIds` missing, empty or naming no project of this workspace, for RESOLVED' },
  });

  resolveRoute('/requests/:requestId', 'impersonation', {
    operationId: 'resolveImpersonationRequest',
    summary: 'Resolve a support impersonation request',
    effect:
      'a single-use sign-in link, valid one hour, is written to the outbox as a `supportSignIn` message to the ' +
      'support address (SUPPORT_EMAIL, default support@<BASE_DOMAIN>). Its link is built from PUBLIC_URL and the ' +
      'workspace domain, never from the request. Redeeming its token at POST /auth/one-time yields a one-hour session ' +
      'acting as the resolving administrator. Impersonation requests are made with `timetrack support impersonate`.',
    permission: 'sign-ins:issue',
  });

  for (const [kind, type, label] of [
    ['unlock', 'timesheetUnlock', 'Unlock'],
    ['approvals', 'timesheetApproval', 'Approval'],
  ] as const) {
    app.post(
      `/requests/timesheets/:year/:week/${kind}`,
      {
        config: { permission: 'requests:create' },
        schema: operation({
          operationId: `createTimesheet${label}Request`,
          tag: TAG,
          summary:
            kind === 'unlock'
              ? 'Ask for a locked timesheet week to be opened for a while'
              : 'Ask for a timesheet week to be approved',
          description:
            `${CREATED} year is the ISO week-numbering year (four digits) and week the ISO week number in the ` +
            'organization time zone: together a real ISO week (week 53 only in years that have one), else 422 at ' +
            '/path/year or /path/week.',
          params: WeekParams,
          response: Type.Ref(WorkflowRequest),
          errors: { 422: 'Also: a `year` of 0000, or a `week` that is 0 or past the last ISO week of its year (53 only in years that have one)' },
        }),
      },
      async (request) => createTimesheetRequest(app.db, request.actor, type, request.params, noticeOf(request)),
    );
  }

  resolveRoute('/requests/:requestId/timesheets/unlock', 'timesheetUnlock', {
    operationId: 'resolveTimesheetUnlockRequest',
    summary: 'Resolve a timesheet-unlock request',
    effect:
      'the requester\'s lock record of that week (created if there is none) gets unlockedTo = now + ' +
      'lockingTimesheets.unlockDuration hours: the week is open for them until then, and locked again after.',
  });

  resolveRoute('/requests/:requestId/timesheets/approvals', 'timesheetApproval', {
    operationId: 'resolveTimesheetApprovalRequest',
    summary: 'Resolve a timesheet-approval request',
    effect:
      'the requester\'s week is locked for them in the same transaction: their lock record of that week (created if ' +
      'there is none) gets unlockedTo null, with a `timesheet.locked` event before `request.resolved`, so their ' +
      'activities in that week are read-only (423) until an administrator unlocks it (DELETE /timesheets/lock/{lockId}, ' +
      'or POST /timesheets/lock with unlockedTo). REJECTED changes nothing but the status.',
  });
};
