import type { Db } from '../../db/database.js';
import { invalid } from '../../domain/errors.js';
import { cleanName } from '../../lib/names.js';
import { toUtcIso } from '../../lib/time.js';
import { existingMemberIds, existingProjectIds, type ReportDefinition } from './repository.js';
import type { Report, ReportCreate, ReportUpdate } from './schemas.js';

/** What a new report starts with for every field the create body leaves out (documented on the operation). */
const DEFAULTS = {
  filters: [],
  hideEmptyRows: false,
  pinned: false,
  selectedProjects: null,
  selectedProjectMembers: null,
  showArchivedProjects: false,
  showArchivedMembers: false,
  overridesEnabled: false,
  overrides: [],
} satisfies Partial<ReportDefinition>;

type Body = ReportCreate | ReportUpdate;

/** Only the three documented keys of each override are kept (bodies are open objects). */
const cleanOverrides = (overrides: NonNullable<Body['overrides']>) =>
  overrides.map(({ column, hint, label }) => ({ column, hint, label }));

/** A report's stored fields with the given ones applied; unknown and server-owned fields never get in. */
function applyFields(current: ReportDefinition, body: Body, acceptsPinned: boolean): ReportDefinition {
  const next: ReportDefinition = { ...current };
  if (body.period !== undefined) next.period = body.period;
  if (body.start !== undefined) next.start = instant(body.start, '/body/start');
  if (body.end !== undefined) next.end = instant(body.end, '/body/end');
  if (body.dimensions !== undefined) next.dimensions = body.dimensions;
  if (body.metrics !== undefined) next.metrics = body.metrics;
  if (body.filters !== undefined) next.filters = body.filters;
  if (body.hideEmptyRows !== undefined) next.hideEmptyRows = body.hideEmptyRows;
  if (body.selectedProjects !== undefined) next.selectedProjects = body.selectedProjects;
  if (body.selectedProjectMembers !== undefined) next.selectedProjectMembers = body.selectedProjectMembers;
  if (body.showArchivedProjects !== undefined) next.showArchivedProjects = body.showArchivedProjects;
  if (body.showArchivedMembers !== undefined) next.showArchivedMembers = body.showArchivedMembers;
  if (body.overridesEnabled !== undefined) next.overridesEnabled = body.overridesEnabled;
  if (body.overrides !== undefined) next.overrides = cleanOverrides(body.overrides);
  // pinned is set with PUT only (the reference lists it there); in a create body it is ignored.
  if (acceptsPinned && 'pinned' in body && body.pinned !== undefined) next.pinned = body.pinned;
  return next;
}

function instant(text: string, pointer: string): string {
  const iso = toUtcIso(text);
  if (iso === null) throw invalid(pointer, 'must be a date-time with an offset');
  return iso;
}

/**
 * Checks the references of a definition against the workspace: every selected project and member
 * must exist (422 pointing at the first that does not). Only ids the body sends are checked.
 */
async function assertReferences(db: Db, organizationId: string, body: Body): Promise<void> {
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

function assertStartBeforeEnd(definition: ReportDefinition, body: Body): void {
  if (definition.start >= definition.end) {
    throw invalid(body.end !== undefined ? '/body/end' : '/body/start', 'end must be after start');
  }
}

/** The checked name and definition of a new report. */
export async function newReportFields(db: Db, organizationId: string, body: ReportCreate) {
  const name = cleanName(body.name, '/body/name');
  const definition = applyFields(
    { ...DEFAULTS, period: body.period, start: '', end: '', dimensions: [], metrics: [] },
    body,
    false,
  );
  assertStartBeforeEnd(definition, body);
  await assertReferences(db, organizationId, body);
  return { name, definition };
}

/** The checked name and definition of a report after an update (fields left out keep their values). */
export async function updatedReportFields(db: Db, organizationId: string, current: Report, body: ReportUpdate) {
  const { id: _id, userId: _userId, name: currentName, ...definition } = current;
  const name = body.name !== undefined ? cleanName(body.name, '/body/name') : currentName;
  const next = applyFields(definition, body, true);
  assertStartBeforeEnd(next, body);
  await assertReferences(db, organizationId, body);
  return { name, definition: next };
}
