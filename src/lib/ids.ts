import { v7 as uuidv7 } from 'uuid';

/** Record ids: UUIDv7, time-ordered so new rows land at the end of PostgreSQL's indexes. */
export const newId = (): string => uuidv7();
