import type { RenderedField } from './rendered-entries.js';
import { fromDbBool, toDbBool } from './values.js';

/*
 * A record and its row, mapped by the record's fields (renderedFieldsOf: each property of its schema
 * with its column and kind), so that a new field of the schema and its column is mapped without a
 * line of its own (docs/architecture.md "Add a field").
 */

/** The record of a row: each field from its column, booleans from 0/1, a list from its JSON text, an optional field left out when null. */
export function recordOfRow<T>(fields: readonly RenderedField[], row: Record<string, unknown>): T {
  const record: Record<string, unknown> = {};
  for (const { key, column, as } of fields) {
    const value = row[column];
    if (as === 'boolean') record[key] = fromDbBool(value as boolean | number);
    else if (as === 'json') record[key] = JSON.parse(value as string);
    else if (as !== 'optional' || value !== null) record[key] = value;
  }
  return record as T;
}

/** The column values of the fields a record (or a change of one) holds, keyed by column; absent fields are left out. */
export function rowOfRecord(fields: readonly RenderedField[], record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const { key, column, as } of fields) {
    const value = record[key];
    if (value === undefined) continue;
    row[column] = as === 'boolean' ? toDbBool(value as boolean) : as === 'json' ? JSON.stringify(value) : value;
  }
  return row;
}
