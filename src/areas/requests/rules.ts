import type { Config } from '../../config.js';
import type { Db, Trx } from '../../db/database.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import { issueSupportSignIn } from '../access/index.js';
import { addMember, holdJoinableUser, holdProject, setMemberRole } from '../projects/index.js';
import { unlockWeek } from '../timesheets/index.js';
import {
  closePendingRequest,
  findRequest,
  insertRequest,
  payloadOf,
  updatePayload,
  type RequestPayload,
  type RequestRow,
} from './repository.js';
import type { RequestType } from './schemas.js';

export const notPending = () => conflict('Only a PENDING request can be resolved; this one is closed.');

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

/**
 * Resolves a request through the route of its kind (decisions §6), in one transaction: the request
 * must be of this workspace and of this kind (404 otherwise: another kind's route does not know it),
 * and PENDING (409). The status change is one conditional UPDATE, so of concurrent resolutions
 * exactly one wins and the others are 409. For RESOLVED the kind's effect runs after it in the same
 * transaction; when the effect fails (422, 409) everything rolls back and the request stays PENDING.
 */
export async function resolveRequest(
  db: Db,
  type: RequestType,
  requestId: string,
  status: 'RESOLVED' | 'REJECTED',
  context: ResolutionContext,
): Promise<RequestRow> {
  return db.transaction().execute(async (trx) => {
    const request = await findRequest(trx, context.workspace.id, requestId);
    if (!request || request.type !== type) throw notFound('request');
    if (request.status !== 'PENDING') throw notPending();
    const resolution = { status, resolvedBy: context.resolver.userId, resolvedAt: context.now };
    if (!(await closePendingRequest(trx, request.id, resolution))) throw notPending();
    let payload = payloadOf(request);
    if (status === 'RESOLVED') {
      const recorded = await EFFECTS[type](trx, request, context);
      if (recorded) {
        payload = { ...payload, ...recorded };
        await updatePayload(trx, request.id, payload);
      }
    }
    return {
      ...request,
      status,
      resolved_by: resolution.resolvedBy,
      resolved_at: resolution.resolvedAt,
      payload: JSON.stringify(payload),
    };
  });
}

const EFFECTS: Record<RequestType, Effect> = {
  /** The member takes the requested project role. */
  async roleChange(trx, request, { workspace }) {
    const { projectId, memberId, role } = payloadOf(request);
    if (!(await setMemberRole(trx, workspace.id, projectId!, memberId!, role!))) {
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
  async timesheetUnlock(trx, request, { workspace, now }) {
    const { year, week } = payloadOf(request);
    if (request.created_by === null) return;
    await unlockWeek(trx, { organizationId: workspace.id, userId: request.created_by, week: { year: year!, week: week! }, now });
  },

  /** Approval is a record only: nothing else changes. */
  async timesheetApproval() {},
};

/**
 * The request `timetrack support impersonate` makes: PENDING, made by no user, with the reason
 * support gave (1–1000 characters after trimming).
 */
export async function createImpersonationRequest(db: Db, organizationId: string, reason: string): Promise<RequestRow> {
  const trimmed = reason.trim();
  if (trimmed.length === 0) throw invalid('/reason', 'must not be blank');
  if (trimmed.length > 1000) throw invalid('/reason', 'must be at most 1000 characters');
  return insertRequest(db, { organizationId, type: 'impersonation', createdBy: null, payload: { reason: trimmed } });
}
