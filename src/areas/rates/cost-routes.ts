import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import { notFound } from '../../domain/errors.js';
import { permits } from '../../domain/policy.js';
import { Empty, Id, IdMap, operation } from '../../http/schemas.js';
import {
  deleteCostRate,
  findCostRate,
  insertCostRate,
  listCostRates,
  updateCostRate,
  userExists,
} from './cost-repository.js';
import { assertNoOverlap, checkRateBody } from './rules.js';
import { CostRate, RateBody } from './schemas.js';

const TAG = 'Users';
const UserRateParams = Type.Object({ userId: Id });
const CostRateParams = Type.Object({ userId: Id, costId: Id });

/**
 * Cost rates are visible to administrators and to the user they belong to (decisions §5); anyone
 * else, like an unknown user id, gets 404.
 */
async function assertMaySeeCosts(db: Db, request: FastifyRequest, userId: string): Promise<void> {
  const visible = permits(request.actor, 'rates:cost:read', { ownerId: userId });
  if (!visible || !(await userExists(db, request.workspace.id, userId))) throw notFound('user');
}

const overlapNote =
  'Periods are half-open [from, to); to null is open-ended. Two rates of one user may not overlap (409), ' +
  'checked under a lock on the user, so concurrent writes cannot both pass.';

export const costRateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:userId/rates/cost',
    {
      schema: operation({
        operationId: 'listCostRates',
        tag: TAG,
        summary: 'A user\'s cost rates, by id',
        description: 'Administrators read anyone\'s; a User reads only their own (another user\'s: 404). In creation order.',
        params: UserRateParams,
        response: IdMap(Type.Ref(CostRate), 'Cost rates by id, in creation order'),
      }),
    },
    async (request) => {
      const { userId } = request.params;
      await assertMaySeeCosts(app.db, request, userId);
      const rates = await listCostRates(app.db, request.workspace.id, userId);
      return Object.fromEntries(rates.map((rate) => [rate.id, rate]));
    },
  );

  app.post(
    '/users/:userId/rates/cost',
    {
      config: { permission: 'rates:cost:write' },
      schema: operation({
        operationId: 'createCostRate',
        tag: TAG,
        summary: 'Add a cost rate to a user',
        description: `Administrators only. currency ISO 4217; taxRate percent 0–100; value ≥ 0; to after from or null. ${overlapNote}`,
        params: UserRateParams,
        body: RateBody,
        response: Type.Ref(CostRate),
        errors: { 403: 'Not an administrator', 409: 'Overlaps another cost rate of the user' },
      }),
    },
    async (request) => {
      const { id: organizationId } = request.workspace;
      const { userId } = request.params;
      if (!(await userExists(app.db, organizationId, userId))) throw notFound('user');
      const period = checkRateBody(request.body);
      return app.db.transaction().execute(async (trx) => {
        if (!(await lockRowForWrite(trx, 'users', userId))) throw notFound('user');
        await assertNoOverlap(trx, 'cost_rates', { column: 'user_id', id: userId }, period);
        const id = await insertCostRate(trx, organizationId, userId, period);
        return (await findCostRate(trx, organizationId, userId, id))!;
      });
    },
  );

  app.get(
    '/users/:userId/rates/cost/:costId',
    {
      schema: operation({
        operationId: 'getCostRate',
        tag: TAG,
        summary: 'One cost rate of a user',
        description: 'Administrators read anyone\'s; a User reads only their own (another user\'s: 404).',
        params: CostRateParams,
        response: Type.Ref(CostRate),
      }),
    },
    async (request) => {
      const { userId, costId } = request.params;
      await assertMaySeeCosts(app.db, request, userId);
      const rate = await findCostRate(app.db, request.workspace.id, userId, costId);
      if (!rate) throw notFound('cost rate');
      return rate;
    },
  );

  app.put(
    '/users/:userId/rates/cost/:costId',
    {
      config: { permission: 'rates:cost:write' },
      schema: operation({
        operationId: 'updateCostRate',
        tag: TAG,
        summary: 'Replace a cost rate',
        description: `Administrators only. Takes the whole rate, as create does (to left out: open-ended). ${overlapNote}`,
        params: CostRateParams,
        body: RateBody,
        response: Type.Ref(CostRate),
        errors: { 403: 'Not an administrator', 409: 'Overlaps another cost rate of the user' },
      }),
    },
    async (request) => {
      const { id: organizationId } = request.workspace;
      const { userId, costId } = request.params;
      if (!(await findCostRate(app.db, organizationId, userId, costId))) throw notFound('cost rate');
      const period = checkRateBody(request.body);
      return app.db.transaction().execute(async (trx) => {
        await lockRowForWrite(trx, 'users', userId);
        if (!(await findCostRate(trx, organizationId, userId, costId))) throw notFound('cost rate');
        await assertNoOverlap(trx, 'cost_rates', { column: 'user_id', id: userId }, period, costId);
        await updateCostRate(trx, costId, period);
        return (await findCostRate(trx, organizationId, userId, costId))!;
      });
    },
  );

  app.delete(
    '/users/:userId/rates/cost/:costId',
    {
      config: { permission: 'rates:cost:write' },
      schema: operation({
        operationId: 'deleteCostRate',
        tag: TAG,
        summary: 'Remove a cost rate',
        description: 'Administrators only.',
        params: CostRateParams,
        response: Empty,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => {
      const { id: organizationId } = request.workspace;
      const { userId, costId } = request.params;
      if (!(await findCostRate(app.db, organizationId, userId, costId))) throw notFound('cost rate');
      await deleteCostRate(app.db, costId);
      return {};
    },
  );
};
