import type { Dialect } from './database.js';

/**
 * One field of a record as the database renders it: `text` always a string, `nullable` a string or
 * null, `boolean` true/false (SQLite 0/1, PostgreSQL boolean), `optional` a string left out when null.
 */
export interface RenderedField {
  key: string;
  column: string;
  as: 'text' | 'nullable' | 'boolean' | 'optional';
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
  const parts = fields.map(({ key, column, as }, i) => {
    const name = `'${i === 0 ? '' : ','}"${key}":'`;
    switch (as) {
      case 'text':
        return `${name} || ${quote(column)}`;
      case 'nullable':
        return `${name} || ${dialect === 'postgres' ? `coalesce(${quote(column)}, 'null')` : quote(column)}`;
      case 'boolean':
        return `${name} || ${dialect === 'postgres' ? `case when ${column} then 'true' else 'false' end` : `iif(${column}, 'true', 'false')`}`;
      case 'optional':
        return dialect === 'postgres' ? `coalesce(${name} || ${quote(column)}, '')` : `iif(${column} is null, '', ${name} || ${quote(column)})`;
    }
  });
  return `${quote(idColumn)} || ':{' || ${parts.join(' || ')} || '}'`;
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
