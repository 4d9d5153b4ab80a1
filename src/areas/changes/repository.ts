import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import { dialectOf, type Db, type Trx } from '../../db/database.js';
import { fixedStatement } from '../../db/fixed-statement.js';
import type { Database } from '../../db/schema.js';
import { readableRows } from '../../db/record-scopes.js';
import type { ReaderScope } from '../../domain/policy.js';
import { CLIENT_RESOURCES, type ChangeResource } from './rules.js';

/** One event as the feed and the webhooks see it: `data` is the JSON text stored with it. */
export interface StoredChange {
  id: string;
  position: number;
  type: string;
  createdAt: string;
  actorId: string | null;
  data: string;
}

export interface ChangeRow {
  id: string;
  organizationId: string;
  type: string;
  resource: ChangeResource;
  subjectUserId: string | null;
  projectId: string | null;
  clientId: string | null;
  actorId: string | null;
  data: string;
  createdAt: string;
}

/*
 * A workspace's next position comes from its change_feeds row. SQLite has one writer, so the insert
 * takes it at once. PostgreSQL leaves the event's position null and the deferred trigger of
 * migration 0010 takes it at COMMIT, under that row's lock (docs/durability.md, "The change feed").
 */
const takePositionSqlite = fixedStatement<{ position: number }>(
  'insert into change_feeds (organization_id, position, pruned_through) values (?, 1, 0) ' +
    'on conflict (organization_id) do update set position = position + 1 returning position',
);
const insertSqlite = fixedStatement(
  'insert into change_events (id, organization_id, position, type, resource, subject_user_id, project_id, client_id, actor_id, data, created_at) ' +
    'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const insertPostgres = fixedStatement(
  'insert into change_events (id, organization_id, type, resource, subject_user_id, project_id, client_id, actor_id, data, created_at) ' +
    'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);

export async function insertChange(trx: Trx, row: ChangeRow): Promise<void> {
  const tail = [row.type, row.resource, row.subjectUserId, row.projectId, row.clientId, row.actorId, row.data, row.createdAt];
  if (dialectOf(trx) === 'postgres') {
    await insertPostgres(trx, [row.id, row.organizationId, ...tail]);
    return;
  }
  const [{ position }] = await takePositionSqlite(trx, [row.organizationId]);
  await insertSqlite(trx, [row.id, row.organizationId, position, ...tail]);
}

/**
 * The workspace's last committed position: every event at or before it is committed (on PostgreSQL a
 * position is given only after the one before it has committed or rolled back).
 */
export async function headPosition(db: Db, organizationId: string): Promise<number> {
  const row = await db.selectFrom('change_feeds').select('position').where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(row?.position ?? 0);
}

export async function prunedThrough(db: Db, organizationId: string): Promise<number> {
  const row = await db.selectFrom('change_feeds').select('pruned_through').where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(row?.pruned_through ?? 0);
}

/** Which events a reader sees: every one, or per kind of record the scope of its permission. */
export type ChangeReader = { all: true } | { all: false; userId: string; scopes: Array<{ resource: ChangeResource; scope: ReaderScope }> };

type Eb = ExpressionBuilder<Database, 'change_events'>;

/**
 * The events the reader sees: per kind of record, those its scope reaches (db/record-scopes.ts) by
 * the event's subject user and project (a client's events: by its client). A kind the reader reaches in no scope adds no condition.
 */
function readableBy(eb: Eb, organizationId: string, reader: Extract<ChangeReader, { all: false }>): Expression<SqlBool> {
  const table = { organizationId, userColumn: 'change_events.subject_user_id', projectColumn: 'change_events.project_id' };
  const clientTable = { organizationId, clientColumn: 'change_events.client_id' };
  const byResource: Expression<SqlBool>[] = [];
  for (const { resource, scope } of reader.scopes) {
    const ofResource = eb('change_events.resource', '=', resource);
    if (scope.all) byResource.push(ofResource);
    else if (scope.scopes.length > 0) byResource.push(eb.and([ofResource, readableRows(scope, CLIENT_RESOURCES.has(resource) ? clientTable : table)]));
  }
  return byResource.length > 0 ? eb.or(byResource) : sql<SqlBool>`1 = 0`;
}

/** Up to `limit` events the reader sees, after one position and at or before another, in commit order. */
export async function readChanges(
  db: Db,
  organizationId: string,
  reader: ChangeReader,
  range: { after: number; through: number; limit: number },
): Promise<StoredChange[]> {
  let query = db
    .selectFrom('change_events')
    .select(['id', 'position', 'type', 'created_at', 'actor_id', 'data'])
    .where('organization_id', '=', organizationId)
    .where('position', '>', range.after)
    .where('position', '<=', range.through);
  if (!reader.all) query = query.where((eb) => readableBy(eb, organizationId, reader));
  const rows = await query.orderBy('position').limit(range.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    position: Number(row.position),
    type: row.type,
    createdAt: row.created_at,
    actorId: row.actor_id,
    data: row.data,
  }));
}

/** Per workspace, the last position among events created before the instant. */
export async function expiredThrough(db: Db, before: string): Promise<Array<{ organizationId: string; through: number }>> {
  const rows = await db
    .selectFrom('change_events')
    .select((eb) => ['organization_id', eb.fn.max('position').as('through')])
    .where('created_at', '<', before)
    .groupBy('organization_id')
    .execute();
  return rows.filter((row) => row.through != null).map((row) => ({ organizationId: row.organization_id, through: Number(row.through) }));
}

/** Deletes a workspace's events through the position and records it: a cursor before it is then expired. */
export async function pruneThrough(trx: Trx, organizationId: string, through: number): Promise<number> {
  await trx
    .insertInto('change_feeds')
    .values({ organization_id: organizationId, position: 0, pruned_through: through })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({
        pruned_through: sql<number>`case when excluded.pruned_through > change_feeds.pruned_through then excluded.pruned_through else change_feeds.pruned_through end`,
      }),
    )
    .execute();
  const result = await trx
    .deleteFrom('change_events')
    .where('organization_id', '=', organizationId)
    .where('position', '<=', through)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
