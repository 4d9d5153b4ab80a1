import type { Area } from '../area.js';
import { webhookRoutes } from './routes.js';
import { Webhook, WebhookDelivery, WebhookEnvelope } from './schemas.js';

/**
 * Webhooks: their routes, and the delivery worker the server runs, which queues the events of the
 * change feed each webhook takes and delivers them.
 */
export const webhooksArea: Area = { name: 'webhooks', routes: webhookRoutes, schemas: [Webhook, WebhookDelivery, WebhookEnvelope] };
