export { accountOfEmail } from './accounts/account-service.js';
export { API_KEYS_PER_USER } from './api-keys/api-key-rules.js';
export { createApiKey, holderOfApiKey, mintApiKey, noteApiKeyUse, type KeyHolder } from './api-keys/api-key-service.js';
export { holderOfSession, noteSessionUse } from './sessions/session-service.js';
export { issueSignInLink, LINK_TTL_HOURS } from './sign-in/link/link-service.js';
export type { FailureKeys, SignInFailures } from './sign-in/password/password-service.js';
export { issueSupportSignIn } from './support/support-sign-in-service.js';
