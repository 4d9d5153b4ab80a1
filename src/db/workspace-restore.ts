import { sql } from 'kysely';
import type { Trx } from './database.js';
import { newId } from '../lib/ids.js';
import { toDbBool } from './values.js';
import { ORGANIZATION_BOOLEANS, ORGANIZATION_SETTINGS, WORKSPACE_TABLES, type WorkspaceTable } from './workspace-tables.js';

/*
 * An export of timetrack (workspace-export.ts) written into a workspace (docs/rules.md §6 Export), in
 * the caller's one transaction: each table after the tables it refers to; a record's id kept when no
 * row of its table has it, a new one given otherwise, and every reference (columns, and ids inside
 * JSON) followed to the record's id here. Each record is remembered in import_keys by its table and
 * exported id: imported again, it is skipped. Users are matched by email (the workspace's own
 * administrator, say); a user the workspace lacks joins with the account of that email.
 */

type Row = Record<string, unknown>;

/** What the restore asks of the areas beside it. */
export interface RestoreHooks {
  /** The account of an email, made when there is none. */
  accountOfEmail(trx: Trx, email: string): Promise<string>;
  /** A new webhook's signing secret, sealed: an imported webhook is disabled until its new secret is read. */
  sealedWebhookSecret(): string;
}

export interface RestoreOutcome {
  /** Rows written, by table. */
  created: Record<string, number>;
  /** Records of the export already in the workspace (imported before, or a user of the same email). */
  skipped: number;
  /** Each user's longest restored activity, by user id here (the listings' look-back). */
  longest: Map<string, { userId: string; startedAt: string; endedAt: string }>;
  /** From the first restored activity's start to the last one's end. */
  period?: { start: string; end: string };
}

const PAGE = 500;

/** Replaces, inside parsed JSON, every string that is an exported id with the id it has here. */
function followIds(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => followIds(item, ids));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, followIds(item, ids)]));
  return value;
}

async function existingIds(trx: Trx, table: string, column: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql<{ id: string }>`select ${sql.ref(column)} as id from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(ids)})`.execute(trx);
  return new Set(rows.rows.map((row) => row.id));
}

async function keysImported(trx: Trx, organizationId: string, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await trx
    .selectFrom('import_keys')
    .select(['source_key', 'record_id'])
    .where('organization_id', '=', organizationId)
    .where('source', '=', 'timetrack')
    .where('source_key', 'in', keys)
    .execute();
  return new Map(rows.map((row) => [row.source_key, row.record_id]));
}

/** The organization's settings of the export, written over the workspace's. */
export async function restoreOrganization(trx: Trx, organizationId: string, settings: Row): Promise<void> {
  const set: Row = {};
  for (const column of ORGANIZATION_SETTINGS) {
    if (!(column in settings)) continue;
    const value = settings[column];
    set[column] = ORGANIZATION_BOOLEANS.includes(column) && typeof value === 'boolean' ? toDbBool(value) : value;
  }
  if (Object.keys(set).length === 0) return;
  await trx
    .updateTable('organizations')
    .set(set as never)
    .where('id', '=', organizationId)
    .execute();
}

/**
 * Writes the rows of every table (`rowsOf(table)` gives the export's rows of one table, in pages) into
 * the workspace; answers what it wrote.
 */
export async function restoreTables(
  trx: Trx,
  run: { organizationId: string; importId: string; hooks: RestoreHooks; rowsOf(table: string): AsyncIterable<Row[]> },
): Promise<RestoreOutcome> {
  const { organizationId, importId, hooks } = run;
  const ids = new Map<string, string>();
  const written = new Set<string>();
  const outcome: RestoreOutcome = { created: {}, skipped: 0, longest: new Map() };
  const now = new Date().toISOString();
  for (const table of WORKSPACE_TABLES) {
    outcome.created[table.name] = 0;
    for await (const page of run.rowsOf(table.name)) {
      for (let i = 0; i < page.length; i += PAGE) {
        await restorePage(trx, { table, rows: page.slice(i, i + PAGE), organizationId, importId, hooks, ids, written, outcome, now });
      }
    }
  }
  return outcome;
}

async function restorePage(
  trx: Trx,
  page: {
    table: WorkspaceTable;
    rows: Row[];
    organizationId: string;
    importId: string;
    hooks: RestoreHooks;
    ids: Map<string, string>;
    written: Set<string>;
    outcome: RestoreOutcome;
    now: string;
  },
): Promise<void> {
  const { table, rows, organizationId, importId, hooks, ids, written, outcome } = page;
  const inserts: Row[] = [];
  const keys: Array<{ source_key: string; record_id: string }> = [];
  if (table.id) {
    const exportedIds = rows.map((row) => String(row[table.id!]));
    const imported = await keysImported(trx, organizationId, exportedIds.map((id) => `${table.name}:${id}`));
    const taken = await existingIds(trx, table.name, table.id, exportedIds);
    const sameEmail = table.name === 'users' ? await usersByEmail(trx, organizationId, rows.map((row) => String(row.email))) : new Map<string, string>();
    for (const row of rows) {
      const exportedId = String(row[table.id]);
      const known = imported.get(`${table.name}:${exportedId}`) ?? sameEmail.get(String(row.email).toLowerCase());
      if (known !== undefined) {
        ids.set(exportedId, known);
        outcome.skipped++;
        continue;
      }
      const id = taken.has(exportedId) ? newId() : exportedId;
      ids.set(exportedId, id);
      written.add(exportedId);
      keys.push({ source_key: `${table.name}:${exportedId}`, record_id: id });
      inserts.push({ ...row, [table.id]: id });
    }
  } else {
    for (const row of rows) if (written.has(String(row[table.parent!]))) inserts.push(row);
  }
  if (inserts.length === 0) return;
  const values: Row[] = [];
  for (const row of inserts) {
    const value: Row = { ...row };
    if (table.name !== 'user_preferences') value.organization_id = organizationId;
    for (const column of Object.keys(table.refs)) {
      const exportedRef = row[column];
      if (exportedRef === null || exportedRef === undefined) continue;
      const here = ids.get(String(exportedRef));
      // A reference to a record the export does not hold (it cannot be followed): left out where it may be.
      value[column] = here ?? null;
    }
    for (const column of table.jsonWithIds ?? []) {
      if (typeof row[column] === 'string') value[column] = JSON.stringify(followIds(JSON.parse(row[column] as string), ids));
    }
    for (const column of table.booleans ?? []) if (typeof value[column] === 'boolean') value[column] = toDbBool(value[column] as boolean);
    if (table.name === 'users') {
      value.account_id = await hooks.accountOfEmail(trx, String(row.email).toLowerCase());
      delete value.email;
    }
    if (table.name === 'webhooks') {
      Object.assign(value, { secret_sealed: hooks.sealedWebhookSecret(), previous_secret_sealed: null, previous_secret_expires_at: null, next_seq: 0, feed_position: 0 });
      Object.assign(value, { enabled: toDbBool(false), disabled_reason: 'Imported without its signing secret: rotate the secret, then enable it.' });
    }
    if (table.name === 'activities' && value.ended_at !== null) {
      noteLongest(outcome.longest, value);
      widen(outcome, String(value.started_at), String(value.ended_at));
    }
    values.push(value);
  }
  await trx
    .insertInto(table.name as 'clients')
    .values(values as never)
    .execute();
  outcome.created[table.name] += values.length;
  if (keys.length > 0) {
    await trx
      .insertInto('import_keys')
      .values(keys.map((key) => ({ organization_id: organizationId, source: 'timetrack', import_id: importId, ...key })))
      .execute();
  }
}

/** The workspace's users by the emails of their accounts (lower case). */
async function usersByEmail(trx: Trx, organizationId: string, emails: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(emails.map((email) => email.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const rows = await trx
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'accounts.email'])
    .where('users.organization_id', '=', organizationId)
    .where('accounts.email', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.email.toLowerCase(), row.id]));
}

const lengthOf = (entry: { startedAt: string; endedAt: string }) => Date.parse(entry.endedAt) - Date.parse(entry.startedAt);

function noteLongest(longest: RestoreOutcome['longest'], row: Row): void {
  const entry = { userId: String(row.user_id), startedAt: String(row.started_at), endedAt: String(row.ended_at) };
  const before = longest.get(entry.userId);
  if (before === undefined || lengthOf(before) < lengthOf(entry)) longest.set(entry.userId, entry);
}

function widen(outcome: RestoreOutcome, start: string, end: string): void {
  if (outcome.period === undefined) outcome.period = { start, end };
  else {
    if (start < outcome.period.start) outcome.period.start = start;
    if (end > outcome.period.end) outcome.period.end = end;
  }
}
