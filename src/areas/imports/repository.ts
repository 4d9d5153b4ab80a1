import { sql, type Insertable, type Selectable } from 'kysely';
import { dialectOf, type Db, type Trx } from '../../db/database.js';
import type { ImportsTable } from '../../db/tables/imports.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../db/values.js';
import { nowIso } from '../../lib/time.js';
import { nameKey } from '../../lib/names.js';
import type { Directory, RatePeriod, StagedEntry } from './plan.js';
import type { Import, ImportCounts, ImportProblem, ImportSource, ImportStatus } from './schemas.js';

/** The options an import was started with, kept with it for the run. */
export interface ImportOptions {
  timeZone: string;
  dateFormat?: 'MDY' | 'DMY' | 'YMD';
  invite: boolean;
}

export const NO_COUNTS: ImportCounts = { clients: 0, projects: 0, tasks: 0, tags: 0, users: 0, members: 0, activities: 0, revenueRates: 0, costRates: 0 };

type ImportRow = Selectable<ImportsTable>;

const toImport = (row: ImportRow): Import => ({
  id: row.id,
  source: row.source as ImportSource,
  status: row.status as ImportStatus,
  dryRun: fromDbBool(row.dry_run),
  mode: row.mode as Import['mode'],
  rows: row.rows,
  rowsDone: row.rows_done,
  created: fromJson<ImportCounts>(row.created)!,
  skipped: row.skipped,
  errorCount: row.error_count,
  errors: fromJson<ImportProblem[]>(row.errors)!,
  warnings: fromJson<ImportProblem[]>(row.warnings)!,
  period: fromJson<{ start: string; end: string }>(row.period),
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

export interface NewImport {
  id: string;
  organizationId: string;
  createdBy: string;
  source: ImportSource;
  dryRun: boolean;
  mode: 'all' | 'valid';
  options: ImportOptions;
}

/** Inserts a queued import; a second queued or running one of the workspace fails imports_one_at_a_time. */
export async function insertImport(db: Db, values: NewImport): Promise<Import> {
  const now = nowIso();
  const row: Insertable<ImportsTable> & ImportRow = {
    id: values.id,
    organization_id: values.organizationId,
    created_by: values.createdBy,
    source: values.source,
    status: 'queued',
    dry_run: toDbBool(values.dryRun),
    mode: values.mode,
    options: toJson(values.options),
    rows: 0,
    rows_done: 0,
    created: toJson(NO_COUNTS),
    skipped: 0,
    error_count: 0,
    errors: '[]',
    warnings: '[]',
    period: null,
    created_at: now,
    finished_at: null,
    heartbeat_at: now,
  };
  await db.insertInto('imports').values(row).execute();
  return toImport(row);
}

export async function findImport(db: Db, organizationId: string, importId: string): Promise<Import | undefined> {
  const row = await db.selectFrom('imports').selectAll().where('id', '=', importId).where('organization_id', '=', organizationId).executeTakeFirst();
  return row && toImport(row);
}

/** What a run needs of its import: who started it and how. */
export async function findImportToRun(db: Db, importId: string): Promise<{ organizationId: string; createdBy: string; source: ImportSource; options: ImportOptions; dryRun: boolean; mode: 'all' | 'valid' } | undefined> {
  const row = await db.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirst();
  if (!row) return undefined;
  return {
    organizationId: row.organization_id,
    createdBy: row.created_by,
    source: row.source as ImportSource,
    options: fromJson<ImportOptions>(row.options)!,
    dryRun: fromDbBool(row.dry_run),
    mode: row.mode as 'all' | 'valid',
  };
}

export async function listImports(db: Db, organizationId: string): Promise<Import[]> {
  const rows = await db.selectFrom('imports').selectAll().where('organization_id', '=', organizationId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toImport);
}

/** Progress of a running import: its rows read so far, and its heartbeat. */
export async function noteProgress(db: Db, importId: string, progress: { status?: 'running'; rows?: number; rowsDone?: number }): Promise<void> {
  await db
    .updateTable('imports')
    .set({
      heartbeat_at: nowIso(),
      ...(progress.status ? { status: progress.status } : {}),
      ...(progress.rows !== undefined ? { rows: progress.rows } : {}),
      ...(progress.rowsDone !== undefined ? { rows_done: progress.rowsDone } : {}),
    })
    .where('id', '=', importId)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

export interface ImportOutcome {
  status: 'succeeded' | 'failed';
  rows: number;
  created: ImportCounts;
  skipped: number;
  errorCount: number;
  errors: ImportProblem[];
  warnings: ImportProblem[];
  /** The imported entries' period, when there are any. */
  period?: { start: string; end: string };
}

/** Ends an import still queued or running; false when it had ended already (another instance marked it failed). */
export async function finishImport(db: Db, importId: string, outcome: ImportOutcome): Promise<boolean> {
  const done = await db
    .updateTable('imports')
    .set({
      status: outcome.status,
      rows: outcome.rows,
      rows_done: outcome.rows,
      created: toJson(outcome.created),
      skipped: outcome.skipped,
      error_count: outcome.errorCount,
      errors: toJson(outcome.errors),
      warnings: toJson(outcome.warnings),
      period: outcome.period ? toJson(outcome.period) : null,
      finished_at: nowIso(),
      heartbeat_at: nowIso(),
    })
    .where('id', '=', importId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

/** Imports still queued or running whose heartbeat is older than `before`. */
export async function findStalledImports(db: Db, before: string): Promise<string[]> {
  const rows = await db.selectFrom('imports').select('id').where('status', 'in', ['queued', 'running']).where('heartbeat_at', '<', before).execute();
  return rows.map((row) => row.id);
}

export async function deleteStagedEntries(db: Db, importId: string): Promise<void> {
  await db.deleteFrom('import_entries').where('import_id', '=', importId).execute();
}

/** Stages entries of an import (applied later in one statement, see the activities face). */
export async function stageEntries(db: Db, organizationId: string, importId: string, entries: readonly StagedEntry[], firstSeq: number): Promise<void> {
  if (entries.length === 0) return;
  if (dialectOf(db) === 'postgres') {
    // One array per column, unnested by the server: a bind per column instead of one per value.
    const column = <T>(value: (entry: StagedEntry, index: number) => T) => entries.map(value);
    await sql`insert into import_entries (import_id, seq, organization_id, id, user_id, project_id, task_id, name, billable, started_at, ended_at, tag_ids, source_key)
      select ${importId}, s.seq, ${organizationId}, s.id, s.user_id, s.project_id, s.task_id, s.name, s.billable, s.started_at, s.ended_at, s.tag_ids, s.source_key
      from unnest(${column((_, index) => firstSeq + index)}::integer[], ${column((entry) => entry.id)}::text[], ${column((entry) => entry.userId)}::text[],
        ${column((entry) => entry.projectId)}::text[], ${column((entry) => entry.taskId)}::text[], ${column((entry) => entry.name)}::text[],
        ${column((entry) => entry.billable)}::boolean[], ${column((entry) => entry.startedAt)}::text[], ${column((entry) => entry.endedAt)}::text[],
        ${column((entry) => toJson(entry.tagIds))}::text[], ${column((entry) => entry.key)}::text[])
        as s(seq, id, user_id, project_id, task_id, name, billable, started_at, ended_at, tag_ids, source_key)`.execute(db);
    return;
  }
  await db
    .insertInto('import_entries')
    .values(
      entries.map((entry, index) => ({
        import_id: importId,
        seq: firstSeq + index,
        organization_id: organizationId,
        id: entry.id,
        user_id: entry.userId,
        project_id: entry.projectId,
        task_id: entry.taskId,
        name: entry.name,
        billable: toDbBool(entry.billable),
        started_at: entry.startedAt,
        ended_at: entry.endedAt,
        tag_ids: toJson(entry.tagIds),
        source_key: entry.key,
      })),
    )
    .execute();
}

/** Remembers where each staged entry came from, in the import's transaction. */
export async function recordImportKeys(trx: Trx, organizationId: string, source: ImportSource, importId: string): Promise<void> {
  await trx
    .insertInto('import_keys')
    .columns(['organization_id', 'source', 'source_key', 'record_id', 'import_id'])
    .expression((eb) =>
      eb
        .selectFrom('import_entries')
        .select([eb.val(organizationId).as('organization_id'), eb.val(source).as('source'), 'source_key', 'id', 'import_id'])
        .where('import_id', '=', importId),
    )
    .execute();
}

/** Which of these keys a source's earlier imports brought in already (none asked when the source brought nothing yet). */
export async function importedKeys(db: Db, organizationId: string, source: ImportSource, keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const any = await db.selectFrom('import_keys').select('source_key').where('organization_id', '=', organizationId).where('source', '=', source).limit(1).executeTakeFirst();
  if (any === undefined) return found;
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db
      .selectFrom('import_keys')
      .select('source_key')
      .where('organization_id', '=', organizationId)
      .where('source', '=', source)
      .where('source_key', 'in', keys.slice(i, i + 500))
      .execute();
    for (const row of rows) found.add(row.source_key);
  }
  return found;
}

/** Users by full name (lower case), for files that name people without an email. */
export async function usersByName(db: Db, organizationId: string): Promise<Map<string, string[]>> {
  const rows = await db.selectFrom('users').select(['id', 'name']).where('organization_id', '=', organizationId).where('name', 'is not', null).execute();
  const byName = new Map<string, string[]>();
  for (const row of rows) {
    const key = row.name!.trim().toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), row.id]);
  }
  return byName;
}

const keyed = <T>(rows: ReadonlyArray<{ key: string; value: T }>) => new Map(rows.map((row) => [row.key, row.value]));

function periodsBy(rows: ReadonlyArray<{ owner: string; from_at: string; to_at: string | null; value: number; currency: string }>): Map<string, RatePeriod[]> {
  const periods = new Map<string, RatePeriod[]>();
  for (const row of rows) periods.set(row.owner, [...(periods.get(row.owner) ?? []), { from: row.from_at, to: row.to_at, value: row.value, currency: row.currency }]);
  return periods;
}

/** The workspace's records an import matches its names against (reads of other areas' tables). */
export async function readDirectory(db: Db, organizationId: string): Promise<Directory> {
  const organization = await db.selectFrom('organizations').select('currency').where('id', '=', organizationId).executeTakeFirstOrThrow();
  const users = await db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'accounts.email'])
    .where('users.organization_id', '=', organizationId)
    .execute();
  const clients = await db.selectFrom('clients').select(['id', 'name']).where('organization_id', '=', organizationId).execute();
  const projects = await db.selectFrom('projects').select(['id', 'name', 'client_id', 'billable']).where('organization_id', '=', organizationId).execute();
  const tasks = await db.selectFrom('tasks').select(['id', 'project_id', 'name', 'billable']).where('organization_id', '=', organizationId).execute();
  const tags = await db.selectFrom('tags').select(['id', 'name']).where('organization_id', '=', organizationId).execute();
  const members = await db.selectFrom('project_members').select(['id', 'project_id', 'user_id']).where('organization_id', '=', organizationId).execute();
  const revenue = await db.selectFrom('revenue_rates').select(['member_id as owner', 'from_at', 'to_at', 'value', 'currency']).where('organization_id', '=', organizationId).execute();
  const cost = await db.selectFrom('cost_rates').select(['user_id as owner', 'from_at', 'to_at', 'value', 'currency']).where('organization_id', '=', organizationId).execute();
  return {
    organizationCurrency: organization.currency,
    usersByEmail: keyed(users.map((user) => ({ key: user.email.toLowerCase(), value: user.id }))),
    clients: keyed(clients.map((client) => ({ key: nameKey(client.name), value: client.id }))),
    projects: keyed(projects.map((project) => ({ key: nameKey(project.name), value: { id: project.id, clientId: project.client_id, billable: fromDbBool(project.billable) } }))),
    tasks: keyed(
      tasks.map((task) => ({ key: `${task.project_id}\n${nameKey(task.name)}`, value: { id: task.id, billable: task.billable === null ? null : fromDbBool(task.billable) } })),
    ),
    tags: keyed(tags.map((tag) => ({ key: nameKey(tag.name), value: tag.id }))),
    members: keyed(members.map((member) => ({ key: `${member.project_id}\n${member.user_id}`, value: member.id }))),
    revenueRates: periodsBy(revenue),
    costRates: periodsBy(cost),
  };
}

/** The workspace's first administrator (by joining): whom an operator's import is recorded as started by. */
export async function firstAdministrator(db: Db, organizationId: string): Promise<{ id: string; email: string } | undefined> {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'accounts.email'])
    .where('users.organization_id', '=', organizationId)
    .where('users.role', '=', 'Administrator')
    .orderBy('users.created_at')
    .orderBy('users.id')
    .executeTakeFirst();
}
