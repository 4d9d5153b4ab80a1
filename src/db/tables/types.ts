import type { ColumnType } from 'kysely';

/** Read back as 0/1 (SQLite) or true/false (PostgreSQL); written as 0/1. Use values.ts to convert. */
export type DbBool = ColumnType<boolean | number, 0 | 1, 0 | 1>;
