import { invalid } from '../../domain/errors.js';
import { cleanName } from '../../lib/names.js';
import { toUtcIso } from '../../lib/time.js';
import type { Report, ReportCreate, ReportUpdate } from './schemas.js';

/** Every field of a report but its id, owner and name: kept as one JSON document. */
export type ReportDefinition = Omit<Report, 'id' | 'userId' | 'name'>;

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

export type ReportBody = ReportCreate | ReportUpdate;

/** Only the three documented keys of each override are kept (bodies are open objects). */
const cleanOverrides = (overrides: NonNullable<ReportBody['overrides']>) =>
  overrides.map(({ column, hint, label }) => ({ column, hint, label }));

/** A report's stored fields with the given ones applied; unknown and server-owned fields never get in. */
function applyFields(current: ReportDefinition, body: ReportBody, acceptsPinned: boolean): ReportDefinition {
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

function assertStartBeforeEnd(definition: ReportDefinition, body: ReportBody): void {
  if (definition.start >= definition.end) {
    throw invalid(body.end !== undefined ? '/body/end' : '/body/start', 'must be after start');
  }
}

/** The checked name and definition of a new report (its references are checked against the workspace apart). */
export function newReportFields(body: ReportCreate): { name: string; definition: ReportDefinition } {
  const name = cleanName(body.name, '/body/name');
  const definition = applyFields(
    { ...DEFAULTS, period: body.period, start: '', end: '', dimensions: [], metrics: [] },
    body,
    false,
  );
  assertStartBeforeEnd(definition, body);
  return { name, definition };
}

/** The checked name and definition of a report after an update (fields left out keep their values). */
export function updatedReportFields(current: Report, body: ReportUpdate): { name: string; definition: ReportDefinition } {
  const { id: _id, userId: _userId, name: currentName, ...definition } = current;
  const name = body.name !== undefined ? cleanName(body.name, '/body/name') : currentName;
  const next = applyFields(definition, body, true);
  assertStartBeforeEnd(next, body);
  return { name, definition: next };
}
