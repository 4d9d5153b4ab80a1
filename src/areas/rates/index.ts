export { addImportedRates } from './imported-service.js';
