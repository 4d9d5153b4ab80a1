import type { FastifyPluginAsync } from 'fastify';
import type { Area } from '../area.js';
import { startMailWorker } from './delivery.js';

/**
 * Outgoing mail has no routes: causes write messages with enqueueMessage in their own transaction,
 * and this area runs the delivery worker for as long as the app is up.
 */
const mailLifecycle: FastifyPluginAsync = async (app) => {
  let worker: ReturnType<typeof startMailWorker> | undefined;
  app.addHook('onReady', async () => {
    worker = startMailWorker(app);
  });
  app.addHook('onClose', async () => {
    await worker?.stop();
  });
};

export const mailArea: Area = { name: 'mail', routes: mailLifecycle };
