import type { Db } from '../../db/database.js';
import { fromJson, toJson } from '../../db/values.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { ReportDefinition } from './rules.js';
import type { Report } from './schemas.js';

interface ReportRow {
  id: string;
  user_id: string;
  name: string;
  definition: string;
}

const reportColumns = ['id', 'user_id', 'name', 'definition'] as const;

function toReport(row: ReportRow): Report {
  const definition = fromJson<ReportDefinition>(row.definition)!;
  return { id: row.id, userId: row.user_id, name: row.name, ...definition };
}

/** Reports are their owner's only: every lookup is by workspace and owner. */
export async function listReports(db: Db, organizationId: string, userId: string): Promise<Report[]> {
  const rows = await db
    .selectFrom('reports')
    .select(reportColumns)
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toReport);
}

export async function findReport(db: Db, organizationId: string, userId: string, reportId: string): Promise<Report | undefined> {
  const row = await db
    .selectFrom('reports')
    .select(reportColumns)
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('id', '=', reportId)
    .executeTakeFirst();
  return row ? toReport(row) : undefined;
}

export async function insertReport(
  db: Db,
  report: { organizationId: string; userId: string; name: string; definition: ReportDefinition },
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto('reports')
    .values({
      id,
      organization_id: report.organizationId,
      user_id: report.userId,
      name: report.name,
      definition: toJson(report.definition),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function updateReport(db: Db, reportId: string, name: string, definition: ReportDefinition): Promise<void> {
  await db
    .updateTable('reports')
    .set({ name, definition: toJson(definition), updated_at: nowIso() })
    .where('id', '=', reportId)
    .execute();
}

/** Deletes a report; false when it was gone already. */
export async function deleteReport(db: Db, reportId: string): Promise<boolean> {
  const result = await db.deleteFrom('reports').where('id', '=', reportId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Which of the ids name projects of the workspace. */
export async function existingProjectIds(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('projects')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Which of the ids name project members of the workspace. */
export async function existingMemberIds(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('project_members')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.id));
}
