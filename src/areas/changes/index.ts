export { changesBetween, feedEnd, pruneChanges, recordChange, type ChangeEvent, type NewChange, type StoredChange } from './service.js';
export { CHANGE_TYPES, type ChangeType } from './rules.js';
