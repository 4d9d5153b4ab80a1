import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, Id, IdMap, operation } from '../../route-kit/schemas.js';
import { costRate, costRates, createCostRate, removeCostRate, replaceCostRate } from './cost-service.js';
import { CostRate, RATE_RULES, RateBody } from './schemas.js';

const TAG = 'Users';
const UserRateParams = Type.Object({ userId: Id });
const CostRateParams = Type.Object({ userId: Id, costId: Id });

const overlapNote =
  'Periods are half-open [from, to); to null is open-ended. Two rates of one user may not overlap (409), ' +
  'checked under a lock on the user, so concurrent writes cannot both pass.';

export const costRateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:userId/rates/cost',
    {
      config: { permission: 'rates:cost:read' },
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
      const rates = await costRates(app.db, request.actor, request.params.userId);
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
        errors: { 403: 'Not an administrator', 409: 'Overlaps another cost rate of the user', 422: RATE_RULES },
      }),
    },
    async (request) => createCostRate(app.db, request.actor, request.params.userId, request.body),
  );

  app.get(
    '/users/:userId/rates/cost/:costId',
    {
      config: { permission: 'rates:cost:read' },
      schema: operation({
        operationId: 'getCostRate',
        tag: TAG,
        summary: 'One cost rate of a user',
        description: 'Administrators read anyone\'s; a User reads only their own (another user\'s: 404).',
        params: CostRateParams,
        response: Type.Ref(CostRate),
      }),
    },
    async (request) => costRate(app.db, request.actor, request.params.userId, request.params.costId),
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
        errors: { 403: 'Not an administrator', 409: 'Overlaps another cost rate of the user', 422: RATE_RULES },
      }),
    },
    async (request) =>
      replaceCostRate(app.db, request.actor, request.params.userId, request.params.costId, request.body),
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
      await removeCostRate(app.db, request.actor, request.params.userId, request.params.costId);
      return {};
    },
  );
};
