import type { Config } from '../../config.js';
import type { Db, Trx } from '../../db/database.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import { permits, readerScope } from '../../domain/policy.js';
import { weekOfPath } from '../../lib/iso-weeks.js';
import { nowIso } from '../../lib/time.js';
import { issueSupportSignIn } from '../access/index.js';
import { recordChange } from '../changes/index.js';
import { addMember, findMember, holdJoinableUser, holdProject, isJoinableUser, readableProject, setMemberRole } from '../projects/index.js';
import { lockApprovedWeek, unlockWeek } from '../timesheets/index.js';
import {
  closePendingRequest,
  findRequest,
  insertRequest,
  listRequests,
  payloadOf,
  toRequestDetail,
  toRequestRecord,
  updatePayload,
  type RequestPayload,
  type RequestRow,
} from './repository.js';
import { mailRequestCreated, mailRequestResolved, type RequestNotice } from './request-mail.js';
import { impersonationReason, notPending } from './rules.js';
import type { RequestType, WorkflowRequest, WorkflowRequestDetail } from './schemas.js';

/** The requests the actor may read: all of the workspace's, or their own. */
export async function workflowRequests(db: Db, actor: Actor): Promise<WorkflowRequestDetail[]> {
  return listRequests(db, actor.organizationId, readerScope(actor, 'requests:read'));
}

/** One request, when the actor may read it (404 otherwise, as for an unknown id). */
export async function workflowRequest(db: Db, actor: Actor, requestId: string): Promise<WorkflowRequestDetail> {
  const row = await findRequest(db, actor.organizationId, requestId);
  if (!row || !permits(actor, 'requests:read', { ownerId: row.created_by })) throw notFound('request');
  return toRequestDetail(row);
}

/** A new PENDING request made by the actor, mailed to the administrators (docs/rules.md §6 Requests). */
async function createRequest(db: Db, actor: Actor, type: RequestType, payload: RequestPayload, notice: RequestNotice): Promise<WorkflowRequest> {
  return toRequestRecord(await insertRecordedRequest(db, { organizationId: actor.organizationId, type, createdBy: actor.userId, payload }, notice));
}

/** Inserts a PENDING request with its `request.created` event (and, with a notice, its mail), in one transaction. */
function insertRecordedRequest(db: Db, request: Parameters<typeof insertRequest>[1], notice?: RequestNotice): Promise<RequestRow> {
  return db.transaction().execute(async (trx) => {
    const row = await insertRequest(trx, request);
    await recordChange(trx, { organizationId: request.organizationId, type: 'request.created', actorId: request.createdBy, data: toRequestDetail(row) });
    if (notice) await mailRequestCreated(trx, notice, row);
    return row;
  });
}

/** Asks for a member of a project the actor can see to take another role. */
export async function createRoleChangeRequest(
  db: Db,
  actor: Actor,
  path: { projectId: string; memberId: string },
  role: NonNullable<RequestPayload['role']>,
  notice: RequestNotice,
): Promise<WorkflowRequest & { projectId: string; role: typeof role }> {
  const { project } = await readableProject(db, actor, path.projectId);
  const member = await findMember(db, actor.organizationId, project.id, path.memberId);
  if (!member) throw notFound('project member');
  const record = await createRequest(db, actor, 'roleChange', { projectId: project.id, memberId: member.id, role }, notice);
  return { ...record, projectId: project.id, role };
}

/** Asks for unarchived users of the workspace to join a project the actor can see; repeats count once. */
export async function createAssignmentRequest(db: Db, actor: Actor, projectId: string, userIds: string[], notice: RequestNotice): Promise<WorkflowRequest> {
  const { project } = await readableProject(db, actor, projectId);
  for (const [index, userId] of userIds.entries()) {
    if (!(await isJoinableUser(db, actor.organizationId, userId))) throw invalid(`/body/userIds/${index}`, 'must name an unarchived user of this workspace');
  }
  return createRequest(db, actor, 'assignment', { projectId: project.id, userIds: [...new Set(userIds)] }, notice);
}

/** Asks administrators to assign the actor to projects they pick when resolving. */
export async function createProjectAssignmentRequest(db: Db, actor: Actor, notice: RequestNotice): Promise<WorkflowRequest> {
  return createRequest(db, actor, 'projectAssignment', {}, notice);
}

/** Asks for a timesheet week (from the path, 422 unless a real ISO week) to be unlocked or approved. */
export async function createTimesheetRequest(
  db: Db,
  actor: Actor,
  type: Extract<RequestType, 'timesheetUnlock' | 'timesheetApproval'>,
  week: { year: string; week: string },
  notice: RequestNotice,
): Promise<WorkflowRequest> {
  return createRequest(db, actor, type, weekOfPath(week), notice);
}

/** Everything an effect may need besides the transaction. */
export interface ResolutionContext {
  config: Config;
  workspace: Workspace;
  resolver: Actor;
  /** The resolving request's body beyond `status` (request-assignment: projectIds). */
  body: { projectIds?: string[] };
  now: string;
}

/** What RESOLVED does for one kind of request; may answer payload fields to record with it. */
type Effect = (trx: Trx, request: RequestRow, context: ResolutionContext) => Promise<Partial<RequestPayload> | void>;

/** A resolving request's body: the status, and the projects a project-assignment request's requester joins. */
export interface Resolution {
  status: 'RESOLVED' | 'REJECTED';
  projectIds?: string[];
}

/**
 * Resolves a request through the route of its kind (docs/rules.md §6), in one transaction: the request
 * must be of this workspace and of this kind (404 otherwise: another kind's route does not know it),
 * and PENDING (409). The status change is one conditional UPDATE, so of concurrent resolutions
 * exactly one wins and the others are 409. For RESOLVED the kind's effect runs after it in the same
 * transaction; when the effect fails (422, 409) everything rolls back and the request stays PENDING.
 */
export async function resolveRequest(
  db: Db,
  actor: Actor,
  workspace: Workspace,
  config: Config,
  type: RequestType,
  requestId: string,
  resolution: Resolution,
): Promise<WorkflowRequest> {
  const { status } = resolution;
  const context: ResolutionContext = {
    config,
    workspace,
    resolver: actor,
    body: resolution.projectIds !== undefined ? { projectIds: resolution.projectIds } : {},
    now: nowIso(),
  };
  return db.transaction().execute(async (trx) => {
    const request = await findRequest(trx, workspace.id, requestId);
    if (!request || request.type !== type) throw notFound('request');
    if (request.status !== 'PENDING') throw notPending();
    const closed = { status, resolvedBy: actor.userId, resolvedAt: context.now };
    if (!(await closePendingRequest(trx, request.id, closed))) {
      // Closed by a concurrent resolution (409), or deleted with its requester meanwhile (404).
      throw (await findRequest(trx, workspace.id, request.id)) ? notPending() : notFound('request');
    }
    let payload = request.payload;
    if (status === 'RESOLVED') {
      const recorded = await EFFECTS[type](trx, request, context);
      if (recorded) {
        const merged = { ...payloadOf(request), ...recorded };
        await updatePayload(trx, request.id, merged);
        payload = JSON.stringify(merged);
      }
    }
    const resolved: RequestRow = { ...request, status, resolved_by: closed.resolvedBy, resolved_at: closed.resolvedAt, payload };
    // Both outcomes are `request.resolved`; data.status tells which (docs/rules.md §6 Change feed).
    await recordChange(trx, { organizationId: workspace.id, type: 'request.resolved', actorId: actor.userId, data: toRequestDetail(resolved) });
    await mailRequestResolved(trx, { config, workspace }, resolved);
    return toRequestRecord(resolved);
  });
}

const EFFECTS: Record<RequestType, Effect> = {
  /** The member takes the requested project role. */
  async roleChange(trx, request, { workspace, resolver }) {
    const { projectId, memberId, role } = payloadOf(request);
    if (!(await setMemberRole(trx, { organizationId: workspace.id, projectId: projectId!, memberId: memberId!, role: role!, actorId: resolver.userId }))) {
      throw conflict('The member of this request no longer exists: reject the request instead.');
    }
  },

  /** Each named user becomes a member; users archived or deleted since the request are skipped. */
  async assignment(trx, request, { workspace, resolver, now }) {
    const { projectId, userIds = [] } = payloadOf(request);
    if (!(await holdProject(trx, workspace.id, projectId!))) {
      throw conflict('The project of this request no longer exists: reject the request instead.');
    }
    // Sorted, so two resolutions that hold the same users take their locks in the same order.
    for (const userId of [...userIds].sort()) {
      if (await holdJoinableUser(trx, workspace.id, userId)) {
        await addMember(trx, { organizationId: workspace.id, projectId: projectId!, userId, role: 'User', assignedBy: resolver.userId }, now);
      }
    }
  },

  /** The requester joins each of projectIds (required for RESOLVED); recorded in the payload. */
  async projectAssignment(trx, request, { workspace, resolver, body, now }) {
    const given = body.projectIds;
    if (given === undefined || given.length === 0) {
      throw invalid('/body/projectIds', 'is required for RESOLVED: at least one project of this workspace');
    }
    const projectIds = [...new Set(given)];
    // Held in sorted order, so resolutions naming the same projects never wait on each other in a cycle.
    for (const projectId of [...projectIds].sort()) {
      if (!(await holdProject(trx, workspace.id, projectId))) {
        throw invalid(`/body/projectIds/${given.indexOf(projectId)}`, 'must name a project of this workspace');
      }
    }
    const requester = request.created_by;
    if (requester !== null && (await holdJoinableUser(trx, workspace.id, requester))) {
      for (const projectId of projectIds) {
        await addMember(trx, { organizationId: workspace.id, projectId, userId: requester, role: 'User', assignedBy: resolver.userId }, now);
      }
    }
    return { projectIds };
  },

  /** A support sign-in link for the resolving administrator, mailed to the support address. */
  async impersonation(trx, request, { config, workspace, resolver, now }) {
    await issueSupportSignIn(trx, { config, workspace, resolver, reason: payloadOf(request).reason, now });
  },

  /** The requester's lock of that week opens until now + unlockDuration hours (created if missing). */
  async timesheetUnlock(trx, request, { workspace, resolver, now }) {
    const { year, week } = payloadOf(request);
    if (request.created_by === null) return;
    await unlockWeek(trx, { organizationId: workspace.id, userId: request.created_by, week: { year: year!, week: week! }, now, actorId: resolver.userId });
  },

  /** The requester's week is locked (unlockedTo null) until an administrator unlocks it. */
  async timesheetApproval(trx, request, { workspace, resolver }) {
    const { year, week } = payloadOf(request);
    if (request.created_by === null) return;
    await lockApprovedWeek(trx, { organizationId: workspace.id, userId: request.created_by, week: { year: year!, week: week! }, actorId: resolver.userId });
  },
};

/**
 * The request `timetrack support impersonate` makes: PENDING, made by no user, with the reason
 * support gave (1–1000 characters after trimming).
 */
export async function createImpersonationRequest(db: Db, organizationId: string, reason: string): Promise<RequestRow> {
  const payload = { reason: impersonationReason(reason) };
  return insertRecordedRequest(db, { organizationId, type: 'impersonation', createdBy: null, payload });
}
