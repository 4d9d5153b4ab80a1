import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './database.js';

/*
 * The only place where the two stores need different column types.
 * Timestamps are stored as canonical UTC ISO strings (`2026-07-04T09:00:00.000Z`): fixed width, so
 * text order is time order in both stores ("C" collation in PostgreSQL makes that byte order).
 * Booleans are 0/1 integers in SQLite and real booleans in PostgreSQL; both accept 0 and 1 as input.
 */
export function columnTypes(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    id: sql`text`,
    text: sql`text`,
    timestamp: (pg ? sql`text collate "C"` : sql`text`) as RawBuilder<unknown>,
    boolean: pg ? sql`boolean` : sql`integer`,
    integer: sql`integer`,
    /** Whole numbers beyond 2^31 (PostgreSQL's integer is 32-bit; SQLite's is always 64-bit). */
    bigint: sql`bigint`,
    real: pg ? sql`double precision` : sql`real`,
    /** JSON documents, stored as text in both stores. */
    json: sql`text`,
  };
}
