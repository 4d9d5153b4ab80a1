export { assertClientForProject } from './service.js';
