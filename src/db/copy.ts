import { createHash } from 'node:crypto';
import fs from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import pg from 'pg';
import { openStore, type Dialect, type Store } from './database.js';
import { migrateToLatest } from './migrate.js';
import { checkMigrations, isPostgresUrl, MIGRATIONS_TABLE, sqliteFileOf, StoreRefusal } from './store-files.js';

/*
 * `timetrack copy --from URL --to URL` (docs/operations.md, "Moving from SQLite to PostgreSQL"):
 * every row of every table of one store into another, new and empty one, checked table by table.
 *
 * - The source is read in one read-only snapshot (a SQLite file opened read-only; PostgreSQL in a
 *   REPEATABLE READ, READ ONLY transaction) and never written.
 * - The target is migrated to this version first, then filled in ONE transaction, tables in the order
 *   of their foreign keys (a table after every table it references), each in pages of rows read by
 *   primary key (memory bounded by a page, whatever the size). Triggers of the target's own making
 *   (PostgreSQL numbers change events and webhook deliveries at COMMIT) are off while the copied rows,
 *   numbers included, go in, and on again before the commit.
 * - Before the commit, each table is read back from the target: its row count and its checksum must
 *   be the source's, else the transaction rolls back (the target keeps only its migrated, empty tables)
 *   and the command names the table.
 *
 * A row's checksum is the SHA-256 of its values as canonical JSON (columns by name; booleans as 0/1,
 * as SQLite stores them); a table's is the sum of its rows' modulo 2^256, which depends on the rows
 * and not on the order the two stores list them in: the same data gives the same checksums in any store.
 */

/** Rows per page read from the source and inserted into the target, fewer for wide tables (bound parameters). */
const PAGE_ROWS = 500;
const PAGE_PARAMETERS = 10_000;
/** The pages of one table at most: far beyond any real store (a page is hundreds of rows), a bound on the loop. */
const MAX_PAGES = 100_000_000;

export interface CopyReport {
  tables: Record<string, { rows: number; checksum: string }>;
  ok: true;
}

/** Tables known by name only, as the catalog finds them. */
type AnyTables = Record<string, Record<string, unknown>>;

interface Side {
  db: Kysely<AnyTables>;
  dialect: Dialect;
  close(): Promise<void>;
}

interface Table {
  name: string;
  columns: string[];
  /** The columns rows are paged by: the primary key, or SQLite's rowid for a table without one. */
  key: string[];
  references: string[];
  booleans: Set<string>;
}

/** Anything a statement runs on: a store, a transaction, a snapshot. */
type Reader = QueryExecutorProvider;

/** The tables of a store (its migrations' bookkeeping aside), with their columns, keys and foreign keys. */
async function catalogOf(db: Reader, dialect: Dialect): Promise<Map<string, Table>> {
  const tables = new Map<string, Table>();
  if (dialect === 'sqlite') {
    const names = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`.execute(db);
    for (const { name } of names.rows) {
      if (name === MIGRATIONS_TABLE) continue;
      const columns = (await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${name}) order by cid`.execute(db)).rows;
      const references = (await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db)).rows;
      const key = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name);
      tables.set(name, {
        name,
        columns: columns.map((column) => column.name),
        key: key.length > 0 ? key : ['rowid'],
        references: [...new Set(references.map((reference) => reference.table))],
        booleans: new Set(),
      });
    }
    return tables;
  }
  const columns = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select c.table_name, c.column_name, c.data_type from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = current_schema() order by c.table_name, c.ordinal_position`.execute(db);
  for (const column of columns.rows) {
    if (column.table_name === MIGRATIONS_TABLE) continue;
    let table = tables.get(column.table_name);
    if (!table) tables.set(column.table_name, (table = { name: column.table_name, columns: [], key: [], references: [], booleans: new Set() }));
    table.columns.push(column.column_name);
    if (column.data_type === 'boolean') table.booleans.add(column.column_name);
  }
  const keys = await sql<{ table_name: string; column_name: string }>`
    select c.relname as table_name, a.attname as column_name
    from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
    cross join lateral unnest(i.indkey) with ordinality as k(attnum, position)
    join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
    where i.indisprimary and n.nspname = current_schema() order by c.relname, k.position`.execute(db);
  for (const key of keys.rows) tables.get(key.table_name)?.key.push(key.column_name);
  const references = await sql<{ table_name: string; referenced: string }>`
    select distinct c.relname as table_name, r.relname as referenced
    from pg_constraint f join pg_class c on c.oid = f.conrelid join pg_class r on r.oid = f.confrelid
    join pg_namespace n on n.oid = c.relnamespace
    where f.contype = 'f' and n.nspname = current_schema()`.execute(db);
  for (const reference of references.rows) tables.get(reference.table_name)?.references.push(reference.referenced);
  for (const table of tables.values()) {
    if (table.key.length === 0) throw new Error(`table ${table.name} has no primary key to copy it by`);
  }
  return tables;
}

/** The tables in an order in which each comes after every table it references (itself aside). */
function foreignKeyOrder(tables: Map<string, Table>): Table[] {
  const ordered: Table[] = [];
  const placed = new Set<string>();
  const pending = [...tables.values()].sort((a, b) => a.name.localeCompare(b.name));
  while (pending.length > 0) {
    const next = pending.findIndex((table) => table.references.every((name) => name === table.name || placed.has(name) || !tables.has(name)));
    if (next < 0) throw new Error(`the foreign keys of ${pending.map((table) => table.name).join(', ')} form a cycle`);
    const [table] = pending.splice(next, 1);
    ordered.push(table);
    placed.add(table.name);
  }
  return ordered;
}

/** The first table that holds a row, or undefined for an empty store. */
async function firstTableWithRows(db: Reader, tables: Iterable<Table>): Promise<string | undefined> {
  for (const table of tables) {
    const { rows } = await sql<{ found: number }>`select 1 as found from ${sql.table(table.name)} limit 1`.execute(db);
    if (rows.length > 0) return table.name;
  }
  return undefined;
}

/** Every page of a table's rows, in its key's order (each store's own), read by key so that no page is read twice. */
async function* pagesOf(db: Reader, table: Table, columns: string[]): AsyncGenerator<Record<string, unknown>[]> {
  const pageRows = Math.max(1, Math.min(PAGE_ROWS, Math.floor(PAGE_PARAMETERS / columns.length)));
  const selected = [...new Set([...columns, ...table.key])];
  const keyOf = (names: string[]) => sql.join(names.map((name) => sql.ref(name)));
  let after: unknown[] | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const where: RawBuilder<unknown> = after === undefined ? sql`` : sql`where (${keyOf(table.key)}) > (${sql.join(after)})`;
    const { rows } = await sql<Record<string, unknown>>`
      select ${keyOf(selected)} from ${sql.table(table.name)} ${where} order by ${keyOf(table.key)} limit ${pageRows}`.execute(db);
    if (rows.length > 0) yield rows;
    if (rows.length < pageRows) return;
    const last = rows[rows.length - 1];
    after = table.key.map((name) => last[name]);
  }
  throw new Error(`table ${table.name} has more than ${MAX_PAGES} pages`);
}

const MODULUS = 1n << 256n;

/** A table's row count and order-free checksum, accumulated a row at a time. */
class TableSum {
  rows = 0;
  private sum = 0n;

  constructor(private readonly columns: string[]) {}

  add(row: Record<string, unknown>): void {
    const values = this.columns.map((column) => {
      const value = row[column];
      if (value === null || value === undefined) return null;
      if (typeof value === 'boolean') return value ? 1 : 0;
      return typeof value === 'bigint' ? value.toString() : value;
    });
    const digest = createHash('sha256').update(JSON.stringify(values)).digest('hex');
    this.sum = (this.sum + BigInt(`0x${digest}`)) % MODULUS;
    this.rows++;
  }

  get checksum(): string {
    return this.sum.toString(16).padStart(64, '0');
  }
}

/** A store's values as the target binds them: booleans as 0/1 for SQLite, as booleans for PostgreSQL's boolean columns. */
function forTarget(row: Record<string, unknown>, columns: string[], dialect: Dialect, booleans: Set<string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const column of columns) {
    const value = row[column];
    if (dialect === 'sqlite') values[column] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    else values[column] = booleans.has(column) && typeof value === 'number' ? value === 1 : value;
  }
  return values;
}

function openSource(url: string): Side {
  if (url.startsWith('sqlite:')) {
    const file = sqliteFileOf(url);
    if (file === undefined) throw new StoreRefusal('--from cannot be an in-memory store (sqlite::memory:)');
    if (!fs.existsSync(file)) throw new StoreRefusal(`--from: no SQLite store at ${file}`);
    const connection = new SqliteDatabase(file, { readonly: true, fileMustExist: true, timeout: 5_000 });
    const db = new Kysely<AnyTables>({ dialect: new SqliteDialect({ database: connection }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  if (isPostgresUrl(url)) {
    // A pool of its own rather than openStore's: openStore creates a missing schema, and the source is never written.
    const parsed = new URL(url);
    const schema = parsed.searchParams.get('schema');
    parsed.searchParams.delete('schema');
    if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new StoreRefusal(`--from: the schema parameter must be a lowercase identifier, got "${schema}"`);
    const pool = new pg.Pool({ connectionString: parsed.toString(), max: 1, options: schema ? `-c search_path=${schema}` : undefined });
    const db = new Kysely<AnyTables>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  throw new StoreRefusal(`--from must start with sqlite: or postgres://, got "${url}"`);
}

function openTarget(url: string): Store {
  if (url.startsWith('sqlite:') && sqliteFileOf(url) === undefined) throw new StoreRefusal('--to cannot be an in-memory store (sqlite::memory:)');
  if (!url.startsWith('sqlite:') && !isPostgresUrl(url)) throw new StoreRefusal(`--to must start with sqlite: or postgres://, got "${url}"`);
  return openStore(url);
}

/** The migrations a store has run; undefined when it has no migrations table. */
async function migrationsOf(db: Reader, dialect: Dialect): Promise<string[] | undefined> {
  const exists =
    dialect === 'sqlite'
      ? await sql`select 1 from sqlite_master where type = 'table' and name = ${MIGRATIONS_TABLE}`.execute(db)
      : await sql`select 1 from information_schema.tables where table_schema = current_schema() and table_name = ${MIGRATIONS_TABLE}`.execute(db);
  if (exists.rows.length === 0) return undefined;
  return (await sql<{ name: string }>`select name from ${sql.table(MIGRATIONS_TABLE)} order by name`.execute(db)).rows.map((row) => row.name);
}

const notEmpty = (table: string) => new StoreRefusal(`the target is not empty (table ${table} holds rows): copy only into a new, empty store`);

/** PostgreSQL: the tables carrying triggers of the app's own (not those that enforce foreign keys). */
async function tablesWithTriggers(db: Reader): Promise<string[]> {
  const { rows } = await sql<{ relname: string }>`
    select distinct c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where not t.tgisinternal and n.nspname = current_schema() order by c.relname`.execute(db);
  return rows.map((row) => row.relname);
}

/** PostgreSQL: moves each sequence behind a serial or identity column past the largest value copied. */
async function resetSequences(db: Reader): Promise<void> {
  const { rows } = await sql<{ table_name: string; column_name: string; sequence: string }>`
    select table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
    from information_schema.columns
    where table_schema = current_schema() and (column_default like 'nextval(%' or is_identity = 'YES')`.execute(db);
  for (const row of rows) {
    if (row.sequence === null) continue;
    await sql`select setval(${row.sequence}, coalesce((select max(${sql.ref(row.column_name)}) from ${sql.table(row.table_name)}), 0) + 1, false)`.execute(db);
  }
}

export async function copyStore(fromUrl: string, toUrl: string): Promise<CopyReport> {
  if (fromUrl === toUrl) throw new StoreRefusal('--from and --to name the same store');
  const source = openSource(fromUrl);
  let target: Store | undefined;
  try {
    target = openTarget(toUrl);
    const sourceMigrations = await migrationsOf(source.db, source.dialect);
    if (sourceMigrations === undefined) throw new StoreRefusal(`--from holds no timetrack store (no ${MIGRATIONS_TABLE} table)`);
    await checkMigrations(sourceMigrations, 'the source', 'refuse');
    // Refused before anything is written to the target, and again inside the copy's transaction.
    const filled = await firstTableWithRows(target.db, (await catalogOf(target.db, target.dialect)).values());
    if (filled !== undefined) throw notEmpty(filled);
    await migrateToLatest(target);
    const report = await copyInto(source, target);
    await target.durable();
    return report;
  } finally {
    await source.close();
    await target?.close();
  }
}

async function copyInto(source: Side, target: Store): Promise<CopyReport> {
  const snapshot = await (source.dialect === 'postgres'
    ? source.db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute()
    : source.db.startTransaction().execute());
  try {
    const sourceTables = await catalogOf(snapshot, source.dialect);
    return await target.db.transaction().execute(async (trx) => {
      const targetTables = await catalogOf(trx, target.dialect);
      const filled = await firstTableWithRows(trx, targetTables.values());
      if (filled !== undefined) throw notEmpty(filled);
      for (const table of targetTables.values()) {
        const from = sourceTables.get(table.name);
        const missing = from === undefined ? ['(the table)'] : table.columns.filter((column) => !from.columns.includes(column));
        if (missing.length > 0) throw new StoreRefusal(`the source's table ${table.name} lacks ${missing.join(', ')}: run \`timetrack migrate\` on it first`);
      }
      const extra = [...sourceTables.keys()].find((name) => !targetTables.has(name));
      if (extra !== undefined) throw new StoreRefusal(`the source has a table ${extra} that this version does not know`);

      const withTriggers = target.dialect === 'postgres' ? await tablesWithTriggers(trx) : [];
      for (const name of withTriggers) await sql`alter table ${sql.table(name)} disable trigger user`.execute(trx);

      const tables: CopyReport['tables'] = {};
      for (const table of foreignKeyOrder(targetTables)) {
        const from = sourceTables.get(table.name)!;
        const columns = [...table.columns].sort();
        const copied = new TableSum(columns);
        for await (const rows of pagesOf(snapshot, { ...from, name: table.name }, columns)) {
          for (const row of rows) copied.add(row);
          await (trx as unknown as Kysely<AnyTables>)
            .insertInto(table.name)
            .values(rows.map((row) => forTarget(row, columns, target.dialect, table.booleans)))
            .execute();
        }
        const landed = new TableSum(columns);
        for await (const rows of pagesOf(trx, table, columns)) for (const row of rows) landed.add(row);
        if (landed.rows !== copied.rows || landed.checksum !== copied.checksum) {
          throw new StoreRefusal(
            `table ${table.name} differs after the copy (source: ${copied.rows} rows, ${copied.checksum}; target: ${landed.rows} rows, ${landed.checksum}): nothing was copied`,
          );
        }
        tables[table.name] = { rows: copied.rows, checksum: copied.checksum };
      }

      for (const name of withTriggers) await sql`alter table ${sql.table(name)} enable trigger user`.execute(trx);
      if (target.dialect === 'postgres') await resetSequences(trx);
      return { tables: Object.fromEntries(Object.entries(tables).sort(([a], [b]) => a.localeCompare(b))), ok: true as const };
    });
  } finally {
    await snapshot.rollback().execute();
  }
}
