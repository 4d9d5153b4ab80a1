export { createImpersonationRequest } from './service.js';
