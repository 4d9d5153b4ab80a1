import type { Db, Trx } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { recordChange, type ChangeType } from '../changes/index.js';
import { administeredProject, findMember } from '../projects/index.js';
import {
  deleteRevenueRate,
  findOverlappingRate,
  findRevenueRate,
  insertRevenueRate,
  listRevenueRates,
  updateRevenueRate,
  type MemberRef,
} from './repository.js';
import { checkRateBody, overlapping, type RatePeriod } from './rules.js';
import type { RateBody, RevenueRate } from './schemas.js';

/** The project member a revenue rate's path names. */
export interface MemberPath {
  projectId: string;
  memberId: string;
}

const rateNotFound = () => notFound('revenue rate');

/** The member the path names, when the caller administers its project (403/404 otherwise, docs/rules.md §5). */
async function memberOfPath(db: Db, actor: Actor, path: MemberPath): Promise<MemberRef> {
  const project = await administeredProject(db, actor, path.projectId, 'rates:revenue');
  const member = await findMember(db, actor.organizationId, project.id, path.memberId);
  if (!member) throw notFound('project member');
  return { organizationId: actor.organizationId, projectId: project.id, memberId: member.id };
}

/**
 * Writes one rate of a member, in a transaction that first takes the write locks of the project row
 * and then of the member row: two concurrent writers of one member's rates then run one after another,
 * so the overlap check of the second sees the first's period (409) instead of both committing
 * overlapping periods; and a concurrent deletion of the project, which locks the project before its
 * members, either waits for the rate or leaves it 404, never a deadlock.
 */
async function writeRate(
  db: Db,
  actor: Actor,
  member: MemberRef,
  period: RatePeriod,
  write: (trx: Trx) => Promise<string>,
  exceptRateId?: string,
): Promise<RevenueRate> {
  const type: ChangeType = exceptRateId === undefined ? 'revenue_rate.created' : 'revenue_rate.updated';
  return db.transaction().execute(async (trx) => {
    // Parent before child, as the project's deletion takes them: locking the member first deadlocked with it.
    if (!(await lockRowForWrite(trx, 'projects', member.projectId))) throw notFound('project');
    if (!(await lockRowForWrite(trx, 'project_members', member.memberId))) throw notFound('project member');
    const clash = await findOverlappingRate(trx, 'revenue_rates', { column: 'member_id', id: member.memberId }, period, exceptRateId);
    if (clash !== undefined) throw overlapping(clash);
    const id = await write(trx);
    const rate = await findRevenueRate(trx, member, id);
    if (!rate) throw rateNotFound();
    await recordChange(trx, { organizationId: member.organizationId, type, actorId: actor.userId, data: rate });
    return rate;
  });
}

export async function revenueRates(db: Db, actor: Actor, path: MemberPath): Promise<RevenueRate[]> {
  return listRevenueRates(db, await memberOfPath(db, actor, path));
}

export async function revenueRate(db: Db, actor: Actor, path: MemberPath, rateId: string): Promise<RevenueRate> {
  const rate = await findRevenueRate(db, await memberOfPath(db, actor, path), rateId);
  if (!rate) throw rateNotFound();
  return rate;
}

export async function createRevenueRate(db: Db, actor: Actor, path: MemberPath, body: RateBody): Promise<RevenueRate> {
  const member = await memberOfPath(db, actor, path);
  const period = checkRateBody(body);
  return writeRate(db, actor, member, period, (trx) => insertRevenueRate(trx, member, period));
}

/** Replaces a revenue rate whole, under the same lock as creation. */
export async function replaceRevenueRate(db: Db, actor: Actor, path: MemberPath, rateId: string, body: RateBody): Promise<RevenueRate> {
  const member = await memberOfPath(db, actor, path);
  if (!(await findRevenueRate(db, member, rateId))) throw rateNotFound();
  const period = checkRateBody(body);
  const replace = async (trx: Trx) => {
    await updateRevenueRate(trx, member, rateId, period);
    return rateId;
  };
  return writeRate(db, actor, member, period, replace, rateId);
}

export async function removeRevenueRate(db: Db, actor: Actor, path: MemberPath, rateId: string): Promise<void> {
  const member = await memberOfPath(db, actor, path);
  await db.transaction().execute(async (trx) => {
    const rate = await findRevenueRate(trx, member, rateId);
    if (!rate || !(await deleteRevenueRate(trx, member, rateId))) throw rateNotFound();
    await recordChange(trx, { organizationId: member.organizationId, type: 'revenue_rate.deleted', actorId: actor.userId, data: rate });
  });
}
