export { deliverPending } from './delivery.js';
export { countRecentServiceMessages, enqueueMessage, EXPIRED_BODY, expireMessageWith, listMessages, type NewMessage, type OutboxMessage } from './repository.js';
