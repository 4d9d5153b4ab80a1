import type { Area } from '../area.js';
import { webhookRoutes } from './routes.js';
import { Webhook, WebhookDelivery, WebhookEnvelope } from './schemas.js';

/**
 * Webhooks: their routes, and the delivery worker the server runs, which queues the events of the
 * change feed each webhook takes and delivers them.
 */
export const webhooksArea: Area = { name: 'webhooks', routes: webhookRoutes, schemas: [Webhook, WebhookDelivery, WebhookEnvelope] };

export { deliverWebhooks, pruneDeliveries, startWebhookWorker, workerCounters, type WebhookPassOptions, type WebhookPassResult } from './delivery.js';
export { DELIVERIES_PER_RUN, retryDelayMs, RETRY_WINDOW_MS, SECRET_GRACE_MS } from './rules.js';
export type { Resolver } from './sender.js';
export { verifyWebhookSignature, type Verification } from './signature.js';
