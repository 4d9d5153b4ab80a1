import type { FastifyPluginAsync } from 'fastify';
import type { Area } from '../area.js';
import { startChangePruning } from './pruning.js';
import { changeRoutes } from './routes.js';
import { ChangeEvent } from './schemas.js';

/** The change feed's route, and the pruning of expired events for as long as the app is up. */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(changeRoutes);
  let pruning: ReturnType<typeof startChangePruning> | undefined;
  app.addHook('onReady', async () => {
    pruning = startChangePruning(app);
  });
  app.addHook('onClose', async () => {
    await pruning?.stop();
  });
};

export const changesArea: Area = { name: 'changes', routes, schemas: [ChangeEvent] };
