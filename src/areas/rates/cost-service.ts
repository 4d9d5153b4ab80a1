import type { Db, Trx } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { permits } from '../../domain/policy.js';
import { recordChange } from '../changes/index.js';
import { deleteCostRate, findCostRate, insertCostRate, listCostRates, updateCostRate, userExists } from './cost-repository.js';
import { findOverlappingRate } from './repository.js';
import { checkRateBody, overlapping, type RatePeriod } from './rules.js';
import type { CostRate, RateBody } from './schemas.js';

/**
 * Cost rates are visible to administrators and to the user they belong to (docs/rules.md §5); anyone
 * else, like an unknown user id, gets 404.
 */
async function assertMaySeeCosts(db: Db, actor: Actor, userId: string): Promise<void> {
  const visible = permits(actor, 'rates:cost:read', { ownerId: userId });
  if (!visible || !(await userExists(db, actor.organizationId, userId))) throw notFound('user');
}

/** 409 when the period overlaps another cost rate of the user; run after the user row's write lock. */
async function assertNoOverlap(trx: Trx, userId: string, period: RatePeriod, exceptRateId?: string): Promise<void> {
  const clash = await findOverlappingRate(trx, 'cost_rates', { column: 'user_id', id: userId }, period, exceptRateId);
  if (clash !== undefined) throw overlapping(clash);
}

export async function costRates(db: Db, actor: Actor, userId: string): Promise<CostRate[]> {
  await assertMaySeeCosts(db, actor, userId);
  return listCostRates(db, actor.organizationId, userId);
}

export async function costRate(db: Db, actor: Actor, userId: string, costId: string): Promise<CostRate> {
  await assertMaySeeCosts(db, actor, userId);
  const rate = await findCostRate(db, actor.organizationId, userId, costId);
  if (!rate) throw notFound('cost rate');
  return rate;
}

/**
 * Writes take the user row's write lock first: two concurrent writers of one user's rates then run
 * one after another, so the second's overlap check sees the first's period.
 */
export async function createCostRate(db: Db, actor: Actor, userId: string, body: RateBody): Promise<CostRate> {
  const { organizationId } = actor;
  if (!(await userExists(db, organizationId, userId))) throw notFound('user');
  const period = checkRateBody(body);
  return db.transaction().execute(async (trx) => {
    if (!(await lockRowForWrite(trx, 'users', userId))) throw notFound('user');
    await assertNoOverlap(trx, userId, period);
    const id = await insertCostRate(trx, organizationId, userId, period);
    const rate = (await findCostRate(trx, organizationId, userId, id))!;
    await recordChange(trx, { organizationId, type: 'cost_rate.created', actorId: actor.userId, data: rate });
    return rate;
  });
}

/** Replaces a cost rate whole, under the same lock as creation. */
export async function replaceCostRate(db: Db, actor: Actor, userId: string, costId: string, body: RateBody): Promise<CostRate> {
  const { organizationId } = actor;
  if (!(await findCostRate(db, organizationId, userId, costId))) throw notFound('cost rate');
  const period = checkRateBody(body);
  return db.transaction().execute(async (trx) => {
    await lockRowForWrite(trx, 'users', userId);
    if (!(await findCostRate(trx, organizationId, userId, costId))) throw notFound('cost rate');
    await assertNoOverlap(trx, userId, period, costId);
    await updateCostRate(trx, costId, period);
    const rate = (await findCostRate(trx, organizationId, userId, costId))!;
    await recordChange(trx, { organizationId, type: 'cost_rate.updated', actorId: actor.userId, data: rate });
    return rate;
  });
}

export async function removeCostRate(db: Db, actor: Actor, userId: string, costId: string): Promise<void> {
  const { organizationId } = actor;
  await db.transaction().execute(async (trx) => {
    const rate = await findCostRate(trx, organizationId, userId, costId);
    if (!rate || !(await deleteCostRate(trx, costId))) throw notFound('cost rate');
    await recordChange(trx, { organizationId, type: 'cost_rate.deleted', actorId: actor.userId, data: rate });
  });
}
