export { recordChange, type ChangeEvent, type NewChange } from './service.js';
export { changesBetween, pruneChanges } from './service.js';
export { headPosition as feedEnd, type StoredChange } from './repository.js';
export { CHANGE_TYPES, type ChangeType } from './rules.js';
