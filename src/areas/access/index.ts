export { completeSignIn, type SignedIn, type SignIn, type SignInContext } from './complete-sign-in.js';
export { findOrCreateAccount, findUserByApiKey, findUserBySession, touchApiKey, type SignInMethod, type TokenHolder } from './repository.js';
export { touchSession } from './session-repository.js';
export { issueSignInLink, LINK_TTL_HOURS } from './links.js';
export type { FailureKeys, SignInFailures } from './passwords.js';
export { API_KEYS_PER_USER } from './rules.js';
export { createApiKey, mintApiKey, type KeyHolder } from './service.js';
export { issueSupportSignIn } from './support-sign-in.js';
export { CHALLENGE_TOKEN_PREFIX, secondFactorChallenge } from './second-factor-challenge.js';
