export { deliverWebhooks, pruneDeliveries, startWebhookWorker, workerCounters, type WebhookPassOptions, type WebhookPassResult } from './delivery.js';
export { DELIVERIES_PER_RUN, retryDelayMs, RETRY_WINDOW_MS, SECRET_GRACE_MS } from './rules.js';
export type { Resolver } from './sender.js';
export { verifyWebhookSignature, type Verification } from './signature.js';
