// What one-time sign-in and access's face use of support sign-in.
export { issueSupportSignIn, SUPPORT_SIGN_IN_TTL_HOURS } from './support-sign-in-service.js';
