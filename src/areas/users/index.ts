export { createUser, findUserIdByEmail, type NewUser } from './repository.js';
export { preferredTimeZone } from './preference-service.js';
