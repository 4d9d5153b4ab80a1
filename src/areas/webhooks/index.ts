import type { Area } from '../area.js';
import { webhookRoutes } from './routes.js';
import { Webhook, WebhookDelivery, WebhookEnvelope } from './schemas.js';

/**
 * Webhooks: their routes, the outbox other areas write to (enqueueWebhookDeliveries, called by the
 * change feed in the transaction of each change), and the delivery worker the server runs.
 */
export const webhooksArea: Area = { name: 'webhooks', routes: webhookRoutes, schemas: [Webhook, WebhookDelivery, WebhookEnvelope] };

export { deliverWebhooks, pruneDeliveries, startWebhookWorker, type WebhookPassOptions, type WebhookPassResult } from './delivery.js';
export { enqueueWebhookDeliveries, type WebhookEvent } from './service.js';
export { retryDelayMs, RETRY_WINDOW_MS, SECRET_GRACE_MS } from './rules.js';
export type { Resolver } from './sender.js';
export { verifyWebhookSignature, type Verification } from './signature.js';
