import type { Db } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import type { Actor } from '../../domain/actor.js';
import { invalid, notFound } from '../../domain/errors.js';
import { recordChange } from '../changes/index.js';
import { deleteReport, existingMemberIds, existingProjectIds, findReport, insertReport, listReports, updateReport } from './saved-reports-repository.js';
import { newReportFields, updatedReportFields, type ReportBody } from './rules.js';
import type { Report, ReportCreate, ReportUpdate } from './schemas.js';

/*
 * Reports are their owner's only (the `own` scope of reports:manage): every lookup is by the actor's
 * workspace and user, so another user's report is not found, for administrators too.
 */

/**
 * Checks the references of a definition against the workspace: every selected project and member
 * must exist (422 pointing at the first that does not). Only ids the body sends are checked.
 */
export async function assertReferences(db: Db, organizationId: string, body: ReportBody): Promise<void> {
  if (body.selectedProjects) {
    const found = await existingProjectIds(db, organizationId, body.selectedProjects);
    const missing = body.selectedProjects.findIndex((id) => !found.has(id));
    if (missing >= 0) throw invalid(`/body/selectedProjects/${missing}`, 'is not a project of this workspace');
  }
  if (body.selectedProjectMembers) {
    const found = await existingMemberIds(db, organizationId, body.selectedProjectMembers);
    const missing = body.selectedProjectMembers.findIndex((id) => !found.has(id));
    if (missing >= 0) throw invalid(`/body/selectedProjectMembers/${missing}`, 'is not a project member of this workspace');
  }
}

export async function ownReports(db: Db, actor: Actor): Promise<Report[]> {
  return listReports(db, actor.organizationId, actor.userId);
}

export async function ownReport(db: Db, actor: Actor, reportId: string): Promise<Report> {
  const report = await findReport(db, actor.organizationId, actor.userId, reportId);
  if (!report) throw notFound('report');
  return report;
}

export async function createReport(db: Db, actor: Actor, body: ReportCreate): Promise<Report> {
  const { organizationId, userId } = actor;
  const { name, definition } = newReportFields(body);
  await assertReferences(db, organizationId, body);
  return db.transaction().execute(async (trx) => {
    const id = await insertReport(trx, { organizationId, userId, name, definition });
    const report = (await findReport(trx, organizationId, userId, id))!;
    await recordChange(trx, { organizationId, type: 'report.created', actorId: userId, data: report });
    return report;
  });
}

/** Applies any subset of the fields; those left out keep their values. */
export async function changeReport(db: Db, actor: Actor, reportId: string, body: ReportUpdate): Promise<Report> {
  const { organizationId, userId } = actor;
  return db.transaction().execute(async (trx) => {
    // Serializes the owner's concurrent changes, so no merge loses another's fields.
    await lockRowForWrite(trx, 'users', userId);
    const current = await findReport(trx, organizationId, userId, reportId);
    if (!current) throw notFound('report');
    const { name, definition } = updatedReportFields(current, body);
    await assertReferences(trx, organizationId, body);
    await updateReport(trx, reportId, name, definition);
    const report = (await findReport(trx, organizationId, userId, reportId))!;
    await recordChange(trx, { organizationId, type: 'report.updated', actorId: userId, data: report });
    return report;
  });
}

export async function removeReport(db: Db, actor: Actor, reportId: string): Promise<void> {
  const { organizationId, userId } = actor;
  await db.transaction().execute(async (trx) => {
    const report = await findReport(trx, organizationId, userId, reportId);
    if (!report || !(await deleteReport(trx, report.id))) throw notFound('report');
    await recordChange(trx, { organizationId, type: 'report.deleted', actorId: userId, data: report });
  });
}
