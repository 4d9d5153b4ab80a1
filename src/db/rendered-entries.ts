import type { TObject, TSchema } from '@sinclair/typebox';
import type { Dialect } from './database.js';

/**
 * One field of a record as the database renders it: `text` always a string, `nullable` a string or
 * null, `boolean` true/false (SQLite 0/1, PostgreSQL boolean), `optional` a string left out when null,
 * `json` a list of strings the column holds as its JSON text (JSON.stringify's, never null), written as it is.
 */
export interface RenderedField {
  key: string;
  column: string;
  as: 'text' | 'nullable' | 'boolean' | 'optional' | 'json';
}

/** The SQL column of each property of a record schema, by key. */
export type RenderedColumns<Schema extends TObject> = Record<Extract<keyof Schema['properties'], string>, string>;

/**
 * The fields of a record schema (a TypeBox object) as renderedEntry takes them, in the order of its
 * properties, each read from its column: a string is `text`; a string that may be null (Nullable or a
 * union with null) is `nullable`, optional or not, since the record carries the column's null; an
 * optional string that may not be null is `optional`, left out when the column is null; a boolean is
 * `boolean`; a required list of strings is `json`. Throws on a property without a column, a column without a property, or a property of
 * another kind, so a listing cannot drift from its schema: call it at module load.
 */
export function renderedFieldsOf<Schema extends TObject>(schema: Schema, columns: RenderedColumns<Schema>): RenderedField[] {
  const name = schema.$id ?? schema.title ?? 'a record schema';
  const byKey: Record<string, string> = columns;
  const keys = Object.keys(schema.properties);
  const unknown = Object.keys(byKey).filter((key) => !keys.includes(key));
  if (unknown.length > 0) throw new Error(`Rendered columns of ${name}: no property ${unknown.join(', ')}`);
  return keys.map((key) => {
    const column = byKey[key];
    if (column === undefined) throw new Error(`Rendered columns of ${name}: no column for ${key}`);
    const as = renderedKindOf(schema.properties[key], !(schema.required ?? []).includes(key));
    if (as === undefined) throw new Error(`Rendered fields of ${name}: ${key} is of a kind the database does not render`);
    return { key, column, as };
  });
}

/** How a property renders, or undefined when the database cannot render it as the serializer would. */
function renderedKindOf(property: TSchema, optional: boolean): RenderedField['as'] | undefined {
  const { type, nullable } = valueTypeOf(property);
  if (type === 'string') return nullable ? 'nullable' : optional ? 'optional' : 'text';
  if (type === 'boolean' && !nullable && !optional) return 'boolean';
  if (type === 'array' && property.items?.type === 'string' && !nullable && !optional) return 'json';
  return undefined;
}

/** A property's JSON type and whether it admits null (Nullable marks it `nullable`; a union with null is an anyOf). */
function valueTypeOf(property: TSchema): { type: unknown; nullable: boolean } {
  const members: TSchema[] | undefined = property.anyOf;
  if (members === undefined) return { type: property.type, nullable: property.nullable === true };
  const notNull = members.filter((member) => member.type !== 'null');
  return members.length === 2 && notNull.length === 1 ? { type: notNull[0].type, nullable: true } : { type: undefined, nullable: false };
}

/**
 * The SQL expression that renders a record as its map entry, `"<id>":{"<key>":…,…}`: the same bytes
 * as the service's serializer makes from the record's schema, given the fields in the schema's order
 * (strings escaped as JSON.stringify escapes them: SQLite's json_quote and PostgreSQL's to_json do;
 * the first field is never optional). A listing rendered so builds no row object per record (see
 * renderedListStatement).
 */
export function renderedEntry(dialect: Dialect, idColumn: string, fields: readonly RenderedField[]): string {
  const quote = (column: string) => (dialect === 'postgres' ? `to_json(${column})::text` : `json_quote(${column})`);
  if (fields[0]?.as === 'optional') throw new Error(`A rendered entry cannot begin with an optional field (${fields[0].key})`);
  const parts = fields.map(({ key, column, as }, i) => {
    const name = `'${i === 0 ? ':{' : ','}"${key}":'`;
    switch (as) {
      case 'text':
        return `${name} || ${quote(column)}`;
      case 'nullable':
        return `${name} || ${dialect === 'postgres' ? `coalesce(${quote(column)}, 'null')` : quote(column)}`;
      case 'boolean':
        return `${name} || ${dialect === 'postgres' ? `case when ${column} then 'true' else 'false' end` : `iif(${column}, 'true', 'false')`}`;
      case 'json':
        return `${name} || ${column}`;
      case 'optional':
        return dialect === 'postgres' ? `coalesce(${name} || ${quote(column)}, '')` : `iif(${column} is null, '', ${name} || ${quote(column)})`;
    }
  });
  const entry = `${quote(idColumn)} || ${parts.join(' || ')} || '}'`;
  // SQLite's is in parentheses, as migration 0005 froze the activities' (src/db/frozen), so the two compare equal.
  return dialect === 'postgres' ? entry : `(${entry})`;
}

/**
 * A statement answering one row, `entries`: the rendered entries of `from` (a FROM clause with its
 * conditions) joined by commas in `orderBy` order, or null when there are none. SQLite's arrive as
 * bytes, to go to the socket as they are.
 */
export function renderedListStatement(dialect: Dialect, entry: string, from: string, orderBy: string): string {
  if (dialect === 'postgres') return `select string_agg(${entry}, ',' order by ${orderBy}) as entries ${from}`;
  // SQLite aggregates the rows of an ordered subquery in that order (it never flattens it into an aggregate).
  return `select cast(group_concat(entry, ',') as blob) as entries from (select ${entry} as entry ${from} order by ${orderBy})`;
}
