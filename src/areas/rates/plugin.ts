import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Area } from '../area.js';
import { costRateRoutes } from './cost-routes.js';
import { revenueRateRoutes } from './revenue-routes.js';
import { CostRate, RevenueRate } from './schemas.js';

/** Rates: revenue rates per project member (cost rates per user join here in their own files). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(revenueRateRoutes);
  await app.register(costRateRoutes);
};

export const ratesArea: Area = { name: 'rates', routes, schemas: [RevenueRate, CostRate] };
