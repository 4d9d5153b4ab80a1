import { Readable } from 'node:stream';
import { sql } from 'kysely';
import yazl from 'yazl';
import type { Db } from './database.js';
import { fromDbBool } from './values.js';
import { EXPORT_FORMAT, EXPORT_VERSION, ORGANIZATION_BOOLEANS, ORGANIZATION_SETTINGS, WORKSPACE_TABLES, type WorkspaceTable } from './workspace-tables.js';

/*
 * GET /export (docs/rules.md §6 Export): every record of one workspace as a ZIP, written as it is read:
 * `organization.json`, one `<table>.jsonl` per table of WORKSPACE_TABLES (a JSON object per row, in
 * pages of PAGE_ROWS, so the memory it takes does not grow with the workspace), and `manifest.json`
 * last, with the counts once they are known.
 */

const PAGE_ROWS = 500;

type Row = Record<string, unknown>;

/** The rows of one table that belong to the workspace, in pages ordered by their key. */
async function* rowsOf(db: Db, table: WorkspaceTable, organizationId: string): AsyncGenerator<Row[]> {
  const key = table.id ? [table.id] : table.name === 'user_preferences' ? ['user_id'] : ['activity_id', 'tag_id'];
  let after: unknown[] | undefined;
  for (;;) {
    const scope =
      table.name === 'user_preferences'
        ? sql`user_id in (select id from users where organization_id = ${organizationId})`
        : sql`organization_id = ${organizationId}`;
    const keys = sql.join(key.map((column) => sql.ref(column)));
    const page = after === undefined ? sql`` : sql` and (${keys}) > (${sql.join(after)})`;
    const extra = table.name === 'users' ? sql`, (select email from accounts where accounts.id = users.account_id) as email` : sql``;
    const rows = (await sql<Row>`select *${extra} from ${sql.table(table.name)} where ${scope}${page} order by ${keys} limit ${PAGE_ROWS}`.execute(db)).rows;
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < PAGE_ROWS) return;
    const last = rows[rows.length - 1];
    after = key.map((column) => last[column]);
  }
}

/** A row as the export writes it: booleans as true/false, the workspace's id and omitted columns left out. */
function exported(table: WorkspaceTable, row: Row): Row {
  const out: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === 'organization_id' || table.omit?.includes(column)) continue;
    out[column] = table.booleans?.includes(column) && value !== null ? fromDbBool(value as number | boolean) : value;
  }
  return out;
}

/** The workspace's export as a ZIP stream; `counts` is complete once the stream has ended. */
export function exportWorkspace(db: Db, organizationId: string, exportedAt: string): Readable {
  const zip = new yazl.ZipFile();
  const counts: Record<string, number> = {};
  zip.addReadStream(
    Readable.from(
      (async function* () {
        const organization = await sql<Row>`select * from organizations where id = ${organizationId}`.execute(db);
        const row = organization.rows[0] ?? {};
        const settings: Row = {};
        for (const column of ORGANIZATION_SETTINGS) {
          const value = row[column];
          settings[column] = ORGANIZATION_BOOLEANS.includes(column) && value !== null && value !== undefined ? fromDbBool(value as number) : (value ?? null);
        }
        yield `${JSON.stringify(settings)}\n`;
      })(),
    ),
    'organization.json',
  );
  for (const table of WORKSPACE_TABLES) {
    counts[table.name] = 0;
    zip.addReadStream(
      Readable.from(
        (async function* () {
          for await (const rows of rowsOf(db, table, organizationId)) {
            counts[table.name] += rows.length;
            yield rows.map((row) => `${JSON.stringify(exported(table, row))}\n`).join('');
          }
        })(),
      ),
      `${table.name}.jsonl`,
    );
  }
  // Read by the ZIP only after every table before it: the counts are final by then.
  zip.addReadStream(
    Readable.from(
      (async function* () {
        yield `${JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt, counts }, null, 2)}\n`;
      })(),
    ),
    'manifest.json',
  );
  zip.end();
  return zip.outputStream as Readable;
}
