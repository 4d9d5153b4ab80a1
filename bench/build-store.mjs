// The databases of --compare: for each build, its own schema, made by its own migrations, holding
// a copy of the seeded data (every row of every table the build knows, in the columns it knows). So
// the reference REF never meets a newer schema than its own: a migration it does not know would be
// left applied under it (its migrator skips names it has no file for), and an index a later
// migration rebuilt (the SQLite listing's rendering, migration 0020) would no longer match REF's
// statements, which would then read the table instead of the index. What REF's schema has no column
// for (an activity's task and tags before migration 0019) the copy leaves out. This tree gets a copy
// made the same way, so that the two databases differ only in what the builds' migrations make.
import pg from 'pg';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The bookkeeping of migrations: the build's own migrator fills it. */
const OWN_TABLES = new Set(['timetrack_migrations']);

/** Migrates an empty database at `url` with the migrations of the build in `root`. */
async function migrateWith(root, url) {
  const { openStore } = await import(pathToFileURL(path.join(root, 'dist/db/database.js')).href);
  const { migrateToLatest } = await import(pathToFileURL(path.join(root, 'dist/db/migrate.js')).href);
  const store = openStore(url);
  try {
    await migrateToLatest(store);
  } finally {
    await store.close();
  }
}

/**
 * Fills the SQLite file `target` (the build's schema) from the seeded file `source`.
 * @returns {Promise<number>} the rows copied
 */
async function copySqlite(source, target) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(target);
  try {
    db.pragma('foreign_keys = off');
    db.prepare('attach database ? as seeded').run(source);
    const tables = db
      .prepare(`select name from main.sqlite_master where type = 'table' and name not like 'sqlite_%'`)
      .pluck()
      .all()
      .filter((name) => !OWN_TABLES.has(name));
    let rows = 0;
    db.transaction(() => {
      for (const table of tables) {
        const columns = db.prepare(`select name from pragma_table_info(?, 'main')`).pluck().all(table).map((c) => `"${c}"`).join(', ');
        rows += db.prepare(`insert into main."${table}" (${columns}) select ${columns} from seeded."${table}"`).run().changes;
      }
    })();
    db.exec('detach database seeded');
    return rows;
  } finally {
    db.close();
  }
}

/**
 * Fills the PostgreSQL schema `target` (the build's schema) from the seeded schema `source` of the same
 * database, foreign keys unchecked (the rows are consistent already), then gathers its statistics.
 */
async function copyPostgres(baseUrl, source, target) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query(
      `select table_name as name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'`,
      [target],
    );
    let copied = 0;
    await client.query('begin');
    await client.query(`set local session_replication_role = replica`);
    for (const { name } of tables.filter((t) => !OWN_TABLES.has(t.name))) {
      const { rows: columns } = await client.query(
        `select column_name as name from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position`,
        [target, name],
      );
      const list = columns.map((c) => `"${c.name}"`).join(', ');
      copied += (await client.query(`insert into ${target}."${name}" (${list}) select ${list} from ${source}."${name}"`)).rowCount;
    }
    await client.query('commit');
    for (const { name } of tables) await client.query(`vacuum analyze ${target}."${name}"`);
    return copied;
  } finally {
    await client.end();
  }
}

/**
 * Makes the database of the build in `root` beside the seeded one, empty before: on SQLite the file
 * `target.file`, on PostgreSQL the schema `target.schema` of the seeded one's database (`target.url`
 * names either).
 * @param {{root: string, store: 'sqlite'|'postgres', source: {url: string, file?: string, schema?: string},
 *   target: {url: string, file?: string, schema?: string}, log: (line: string) => void}} spec
 */
export async function copyForBuild({ root, store, source, target, log }) {
  const started = Date.now();
  await migrateWith(root, target.url);
  let rows;
  if (store === 'sqlite') rows = await copySqlite(source.file, target.file);
  else {
    const database = new URL(source.url);
    database.searchParams.delete('schema');
    rows = await copyPostgres(database.toString(), source.schema, target.schema);
  }
  log(`its own migrations, ${rows.toLocaleString('en')} rows copied in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
