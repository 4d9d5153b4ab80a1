import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, Id, IdMap, operation } from '../../route-kit/schemas.js';
import { MemberParams } from '../projects/index.js';
import { createRevenueRate, removeRevenueRate, replaceRevenueRate, revenueRate, revenueRates } from './revenue-service.js';
import { RATE_RULES, RateBody, RevenueRate } from './schemas.js';

const TAG = 'Revenue rates';
const WHO = 'Administrators and the project\'s admins only: another member of the project gets 403, anyone else 404.';

const RevenueRateParams = Type.Object({ ...MemberParams.properties, revenueId: Id });
const RevenueRateMap = IdMap(Type.Ref(RevenueRate), 'The member\'s revenue rates by id, in creation order');

export const revenueRateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const path = '/projects/:projectId/members/:memberId/rates/revenue';

  app.get(
    path,
    {
      config: { permission: 'rates:revenue' },
      schema: operation({
        operationId: 'listRevenueRates',
        tag: TAG,
        summary: 'A project member\'s revenue rates',
        description: WHO,
        params: MemberParams,
        response: RevenueRateMap,
        errors: { 403: 'A member who is not a project admin' },
      }),
    },
    async (request) => {
      const rates = await revenueRates(app.db, request.actor, request.params);
      return Object.fromEntries(rates.map((rate) => [rate.id, rate]));
    },
  );

  app.post(
    path,
    {
      config: { permission: 'rates:revenue' },
      schema: operation({
        operationId: 'createRevenueRate',
        tag: TAG,
        summary: 'Add a revenue rate to a project member',
        description: `${WHO} Periods are half-open [from, to); to null runs forever.`,
        params: MemberParams,
        body: RateBody,
        response: Type.Ref(RevenueRate),
        errors: { 403: 'A member who is not a project admin', 409: 'The period overlaps another rate of the member', 422: RATE_RULES },
      }),
    },
    async (request) => createRevenueRate(app.db, request.actor, request.params, request.body),
  );

  app.get(
    `${path}/:revenueId`,
    {
      config: { permission: 'rates:revenue' },
      schema: operation({
        operationId: 'getRevenueRate',
        tag: TAG,
        summary: 'One revenue rate of a project member',
        description: WHO,
        params: RevenueRateParams,
        response: Type.Ref(RevenueRate),
        errors: { 403: 'A member who is not a project admin' },
      }),
    },
    async (request) => revenueRate(app.db, request.actor, request.params, request.params.revenueId),
  );

  app.put(
    `${path}/:revenueId`,
    {
      config: { permission: 'rates:revenue' },
      schema: operation({
        operationId: 'updateRevenueRate',
        tag: TAG,
        summary: 'Replace a revenue rate',
        description: `${WHO} Takes every field, like creation.`,
        params: RevenueRateParams,
        body: RateBody,
        response: Type.Ref(RevenueRate),
        errors: { 403: 'A member who is not a project admin', 409: 'The period overlaps another rate of the member', 422: RATE_RULES },
      }),
    },
    async (request) =>
      replaceRevenueRate(app.db, request.actor, request.params, request.params.revenueId, request.body),
  );

  app.delete(
    `${path}/:revenueId`,
    {
      config: { permission: 'rates:revenue' },
      schema: operation({
        operationId: 'deleteRevenueRate',
        tag: TAG,
        summary: 'Delete a revenue rate',
        description: WHO,
        params: RevenueRateParams,
        response: Empty,
        errors: { 403: 'A member who is not a project admin' },
      }),
    },
    async (request) => {
      await removeRevenueRate(app.db, request.actor, request.params, request.params.revenueId);
      return {};
    },
  );
};
