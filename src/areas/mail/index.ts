export { deliverPending } from './delivery.js';
export { EXPIRED_BODY } from './rules.js';
export { countRecentServiceMessages, enqueueMessage, expireMessageWith, listMessages, type NewMessage, type OutboxFilter, type OutboxMessage } from './service.js';
