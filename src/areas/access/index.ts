export { completeSignIn, type SignedIn, type SignIn, type SignInContext } from './sign-in/sign-in-flow.js';
export { findOrCreateAccount, findUserByApiKey, findUserBySession, touchApiKey, type SignInMethod, type TokenHolder } from './accounts/account-repository.js';
export { touchSession } from './sessions/session-repository.js';
export { issueSignInLink, LINK_TTL_HOURS } from './sign-in/link/link-mail-service.js';
export type { FailureKeys, SignInFailures } from './sign-in/password/password-service.js';
export { API_KEYS_PER_USER } from './api-keys/api-key-rules.js';
export { createApiKey, mintApiKey, type KeyHolder } from './api-keys/api-key-service.js';
export { issueSupportSignIn } from './support/support-sign-in-service.js';
export { CHALLENGE_TOKEN_PREFIX, secondFactorChallenge } from './sign-in/second-factor-challenge.js';
