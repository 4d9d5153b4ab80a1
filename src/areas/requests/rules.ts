import type { Config } from '../../config.js';
import { supportAddress, workspaceUrl } from '../../config.js';
import type { Db } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import { fromDbBool, toDbBool } from '../../db/values.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import { newId } from '../../lib/ids.js';
import { addHours } from '../../lib/time.js';
import { ONE_TIME_TOKEN_PREFIX, newToken } from '../../lib/tokens.js';
import { enqueueMessage } from '../mail/repository.js';
import { findMember, findWorkspaceUser, updateMember } from '../projects/repository.js';
import type { Actor } from '../../domain/actor.js';
import { findLockSettings, upsertLock } from '../timesheets/repository.js';
import type { Workspace } from '../workspace/repository.js';
import {
  closePendingRequest,
  findRequest,
  insertOneTimeToken,
  insertRequest,
  payloadOf,
  updatePayload,
  type RequestPayload,
  type RequestRow,
} from './repository.js';
import type { RequestType } from './schemas.js';

/** A one-time support sign-in link, and the session it yields, last this long. */
export const ONE_TIME_TTL_HOURS = 1;

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
type Effect = (trx: Db, request: RequestRow, context: ResolutionContext) => Promise<Partial<RequestPayload> | void>;

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

/**
 * Makes a user a project member with role User, assigned by the resolver, unless they already are
 * one (an existing membership stays as it is, archived or not). ON CONFLICT DO NOTHING on
 * project_members_one_per_user: a concurrent addition of the same user never fails the transaction.
 */
async function addMember(trx: Db, organizationId: string, projectId: string, userId: string, assignedBy: string, now: string) {
  await trx
    .insertInto('project_members')
    .values({
      id: newId(),
      organization_id: organizationId,
      project_id: projectId,
      user_id: userId,
      role: 'User',
      archived: toDbBool(false),
      assigned_by: assignedBy,
      title: null,
      notes: null,
      tags: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing())
    .execute();
}

/**
 * A user who may still join a project: of this workspace and unarchived. Their row is held for the
 * rest of the transaction, so they cannot be deleted before the membership is written.
 */
async function joinableUser(trx: Db, organizationId: string, userId: string): Promise<boolean> {
  if (!(await lockRowForWrite(trx, 'users', userId))) return false;
  const user = await findWorkspaceUser(trx, organizationId, userId);
  return user !== undefined && !fromDbBool(user.archived);
}

/** The project, held for the rest of the transaction, when it is (still) one of this workspace. */
async function heldProject(trx: Db, organizationId: string, projectId: string): Promise<boolean> {
  if (!(await lockRowForWrite(trx, 'projects', projectId))) return false;
  const row = await trx
    .selectFrom('projects')
    .select('id')
    .where('id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

const EFFECTS: Record<RequestType, Effect> = {
  /** The member takes the requested project role. */
  async roleChange(trx, request, { workspace }) {
    const { projectId, memberId, role } = payloadOf(request);
    const member = await findMember(trx, workspace.id, projectId!, memberId!);
    if (!member) throw conflict('The member of this request no longer exists: reject the request instead.');
    await updateMember(trx, workspace.id, member.id, { role: role! });
  },

  /** Each named user becomes a member; users archived or deleted since the request are skipped. */
  async assignment(trx, request, { workspace, resolver, now }) {
    const { projectId, userIds = [] } = payloadOf(request);
    if (!(await heldProject(trx, workspace.id, projectId!))) {
      throw conflict('The project of this request no longer exists: reject the request instead.');
    }
    // Sorted, so two resolutions that hold the same users take their locks in the same order.
    for (const userId of [...userIds].sort()) {
      if (await joinableUser(trx, workspace.id, userId)) {
        await addMember(trx, workspace.id, projectId!, userId, resolver.userId, now);
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
      if (!(await heldProject(trx, workspace.id, projectId))) {
        throw invalid(`/body/projectIds/${given.indexOf(projectId)}`, 'must name a project of this workspace');
      }
    }
    if (request.created_by !== null && (await joinableUser(trx, workspace.id, request.created_by))) {
      for (const projectId of projectIds) {
        await addMember(trx, workspace.id, projectId, request.created_by, resolver.userId, now);
      }
    }
    return { projectIds };
  },

  /**
   * A single-use sign-in link, valid one hour, mailed to the support address: redeeming it at
   * POST /auth/one-time yields a one-hour session acting as the resolving administrator.
   */
  async impersonation(trx, request, { config, workspace, resolver, now }) {
    const token = newToken(ONE_TIME_TOKEN_PREFIX);
    const expiresAt = addHours(now, ONE_TIME_TTL_HOURS);
    await insertOneTimeToken(trx, { organizationId: workspace.id, userId: resolver.userId, token, expiresAt });
    const base = workspaceUrl(config, workspace.domain);
    const { reason } = payloadOf(request);
    const resolverEmail = await emailOf(trx, resolver.userId);
    await enqueueMessage(trx, {
      organizationId: workspace.id,
      to: supportAddress(config),
      kind: 'supportSignIn',
      subject: `Support sign-in to workspace ${workspace.domain}`,
      body:
        `${resolverEmail} approved your request to sign in to workspace "${workspace.domain}"` +
        `${reason ? ` (reason: ${reason})` : ''}.\n\n` +
        `Sign in, once, before ${expiresAt}:\n${base}/auth/one-time?token=${token}\n\n` +
        `Or with the API: POST ${base}/api/auth/one-time with {"token": "${token}"}; the answer holds a session ` +
        `token, valid one hour, that acts as ${resolverEmail}.\n`,
    });
  },

  /** The requester's lock of that week opens until now + unlockDuration hours (created if missing). */
  async timesheetUnlock(trx, request, { workspace, now }) {
    const { year, week } = payloadOf(request);
    if (request.created_by === null) return;
    const { unlockDuration } = await findLockSettings(trx, workspace.id);
    await upsertLock(trx, {
      organizationId: workspace.id,
      userId: request.created_by,
      week: { year: year!, week: week! },
      unlockedTo: addHours(now, unlockDuration),
    });
  },

  /** Approval is a record only: nothing else changes. */
  async timesheetApproval() {},
};

async function emailOf(trx: Db, userId: string): Promise<string> {
  const row = await trx
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select('accounts.email')
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.email;
}

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
