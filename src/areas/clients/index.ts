export { addImportedClients, assertClientForProject } from './service.js';
