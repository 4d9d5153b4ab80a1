export { deliverWebhooks, pruneDeliveries, type WebhookPassOptions, type WebhookPassResult } from './delivery.js';
export { startWebhookWorker, workerCounters } from './worker.js';
export { DELIVERIES_PER_RUN, retryDelayMs, RETRY_WINDOW_MS, SECRET_GRACE_MS, slotsPerWorkspace, WEBHOOKS_PER_WORKSPACE } from './rules.js';
export type { Resolver } from './sender.js';
export { verifyWebhookSignature, type Verification } from './signature.js';
export { sealedNewWebhookSecret } from './service.js';
