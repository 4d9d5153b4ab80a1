export { accountOfEmail } from './accounts/index.js';
export { API_KEYS_PER_USER } from './api-keys/api-key-rules.js';
export { createApiKey, holderOfApiKey, mintApiKey, noteApiKeyUse, type KeyHolder } from './api-keys/api-key-service.js';
export { holderOfSession, noteSessionUse } from './sessions/index.js';
export { issueSignInLink, LINK_TTL_HOURS } from './sign-in/link/index.js';
export type { FailureKeys, SignInFailures } from './sign-in/password/index.js';
export { issueSupportSignIn } from './support/index.js';
