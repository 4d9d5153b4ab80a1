/** The opaque cursors of GET /activities' pages, for other listings that page by startedAt and id. */
export { cursorOf, keyOfCursor, type ListKey } from './listing.js';
export { addImportedActivities, noteImportedLengths } from './service.js';
