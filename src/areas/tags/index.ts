export { addImportedTags, findTagsForBooking } from './service.js';
export type { Tag } from './schemas.js';
