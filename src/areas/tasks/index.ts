export { addImportedTasks, findTaskForBooking } from './service.js';
export type { Task } from './schemas.js';
