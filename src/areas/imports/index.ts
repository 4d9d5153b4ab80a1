export { runningImportsOf } from './runner.js';
export { importAsOperator, workspaceExport } from './service.js';
export { IMPORT_SOURCES } from './schemas.js';
