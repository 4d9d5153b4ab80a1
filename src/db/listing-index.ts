import type { Dialect } from './database.js';
import { POSTGRES_LISTING_INCLUDE_0005 } from './frozen/activity-listing.js';
import { renderedEntry, type RenderedField } from './rendered-entries.js';

/*
 * The index a user's GET /activities is read from alone, activities_user_listing (migration 0005),
 * as the listed record's fields define it: what a new field changes, and the statements that rebuild
 * it (docs/architecture.md "Add a field"). Pure: `npm run db:listing` compares its answer with what
 * src/db/frozen/ says the databases hold, and writes the migration when they differ.
 */

export const LISTING_INDEX = 'activities_user_listing';

/** Its keys on both stores, as 0005 made them: the user's period in listing order. */
const KEYS: readonly string[] = ['user_id', 'started_at', 'id'];

/** SQLite's keys before the entry: ended_at too, which `from` tests on the rows of the range. */
const SQLITE_KEYS: readonly string[] = [...KEYS, 'ended_at'];

export interface ListingIndexDefinition {
  /** SQLite: the rendered entry stored as the index's last key, which the listing query repeats byte for byte. */
  sqliteEntry: string;
  /** PostgreSQL: the columns the index includes beyond its keys, so the listing is an index-only scan. */
  postgresInclude: readonly string[];
}

/**
 * The definition the record's rendered fields (renderedFieldsOf, in schema order) call for. SQLite
 * stores `renderedEntry('sqlite', 'id', fields)`. PostgreSQL includes every column of the record that
 * is not a key: first those of 0005's list, in its order (ended_at, project_id, billable, name), then
 * any other in the order of the schema. The order depends on the fields alone, so the same record
 * always gives the same list, and the fields of today give 0005's definition exactly.
 */
export function listingIndexOf(fields: readonly RenderedField[]): ListingIndexDefinition {
  const columns = [...new Set(fields.map((field) => field.column))].filter((column) => !KEYS.includes(column));
  const known = POSTGRES_LISTING_INCLUDE_0005.filter((column) => columns.includes(column));
  const added = columns.filter((column) => !known.includes(column));
  return { sqliteEntry: renderedEntry('sqlite', 'id', fields), postgresInclude: [...known, ...added] };
}

/** Whether two definitions build the same index (the include list in order, as the index lists it). */
export function sameListingIndex(a: ListingIndexDefinition, b: ListingIndexDefinition): boolean {
  return a.sqliteEntry === b.sqliteEntry && a.postgresInclude.join(', ') === b.postgresInclude.join(', ');
}

/** The statement that creates the index on one store, with 0005's name and keys. */
export function createListingIndexStatement(dialect: Dialect, definition: ListingIndexDefinition): string {
  return dialect === 'postgres'
    ? `create index ${LISTING_INDEX} on activities (${KEYS.join(', ')}) include (${definition.postgresInclude.join(', ')})`
    : `create index ${LISTING_INDEX} on activities (${SQLITE_KEYS.join(', ')}, ${definition.sqliteEntry})`;
}

/** The statements that rebuild the index on one store, in order: drop it, create it as defined. */
export function rebuildListingIndexStatements(dialect: Dialect, definition: ListingIndexDefinition): string[] {
  return [`drop index ${LISTING_INDEX}`, createListingIndexStatement(dialect, definition)];
}
