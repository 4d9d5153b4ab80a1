// What the link pages and access's face use of passwords.
export { assertPasswordLength, PASSWORD_MAX, PASSWORD_MIN } from './password-rules.js';
export { changePassword, signInWithPassword, type FailureKeys, type SignInFailures } from './password-service.js';
