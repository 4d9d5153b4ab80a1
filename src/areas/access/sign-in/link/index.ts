// What support sign-in and access's face use of sign-in links.
export { issueSignInLink, LINK_TTL_HOURS, storeOneTimeToken } from './link-service.js';
