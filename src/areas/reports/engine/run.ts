import type { Db } from '../../../db/database.js';
import type { Actor } from '../../../domain/actor.js';
import { forbidden } from '../../../domain/errors.js';
import { reachesAll, readerScope, type ReaderScope } from '../../../domain/policy.js';
import { canonicalTimeZone } from '../../../lib/time-zones.js';
import { preferredTimeZone } from '../../users/index.js';
import { getOrganization } from '../../workspace/index.js';
import type { ReportDefinition } from '../rules.js';
import { administersSomeProject } from './directory.js';
import { parseFilters } from './filters.js';
import { resolvePeriod, type ReportPeriod } from './period.js';
import type { Rounding } from './rounding.js';
import { clampPeriod, reportEntriesPage, type EntryKey, type ReportEntry, type SelectionSpec } from './selection.js';

/** What a run needs of a definition: a saved report's fields, or an ad-hoc body's. */
export type RunDefinition = Omit<ReportDefinition, 'pinned'>;

/** A definition made ready to run for one caller: its period, zone, rounding, access and selection. */
export interface ReportRun {
  definition: RunDefinition;
  period: ReportPeriod;
  timeZone: string;
  rounding: Rounding;
  /** Filter objects the grammar does not understand, as sent (docs/rules.md §6 Reports). */
  ignoredFilters: Array<Record<string, unknown>>;
  spec: SelectionSpec;
}

/**
 * The report's time zone: the `timeZone` query (422 when it names no IANA zone), else the caller's
 * preference, else the organization's, else UTC.
 */
async function reportTimeZone(db: Db, actor: Actor, asked: string | undefined, organizationZone: string | undefined): Promise<string> {
  if (asked !== undefined) return canonicalTimeZone(asked, '/query/timeZone');
  return (await preferredTimeZone(db, actor.userId)) ?? organizationZone ?? 'UTC';
}

/**
 * Who sees money (docs/rules.md §6 Reports): `revenue` needs revenue-rate access (an Administrator
 * every project, a project admin the projects they administer); `cost` and `profit` are
 * Administrators' only. Asking for a metric one may read none of is 403 naming it.
 */
async function revenueAccess(db: Db, actor: Actor, metrics: readonly string[]): Promise<ReaderScope | null> {
  for (const metric of ['cost', 'profit']) {
    if (metrics.includes(metric) && !reachesAll(actor, 'rates:cost:read')) {
      throw forbidden(`The metric ${metric} needs the cost rates of every user: only administrators may ask for it.`);
    }
  }
  if (!metrics.includes('revenue') && !metrics.includes('profit')) return null;
  const scope = readerScope(actor, 'rates:revenue');
  const readsSome = scope.all || (scope.scopes.includes('administered') && (await administersSomeProject(db, actor.organizationId, actor.userId)));
  if (!readsSome) {
    throw forbidden('The metric revenue needs revenue rates: only administrators and project admins (for the projects they administer) may ask for it.');
  }
  return scope;
}

export async function prepareReportRun(db: Db, actor: Actor, definition: RunDefinition, timeZone?: string): Promise<ReportRun> {
  const organization = await getOrganization(db, actor.organizationId);
  const zone = await reportTimeZone(db, actor, timeZone, organization.timeZone);
  const revenue = await revenueAccess(db, actor, definition.metrics);
  const period = clampPeriod(resolvePeriod(definition, zone));
  const rounding: Rounding = organization.rounding ?? { enabled: false, interval: 15, mode: 'NEAREST' };
  const { filters, ignored } = parseFilters(definition.filters);
  const spec: SelectionSpec = {
    organizationId: actor.organizationId,
    period,
    rounding,
    filters,
    selectedProjects: definition.selectedProjects ?? null,
    selectedProjectMembers: definition.selectedProjectMembers ?? null,
    showArchivedProjects: definition.showArchivedProjects ?? false,
    showArchivedMembers: definition.showArchivedMembers ?? false,
    entries: readerScope(actor, 'activities:read'),
    revenue,
  };
  return { definition, period, timeZone: zone, rounding, ignoredFilters: ignored, spec };
}

/**
 * The entries a report counts, for the caller, in (startedAt, id) order, one page at a time (pass the
 * last entry's key as `after` for the next): the selection the summary and the detailed report share.
 */
export async function selectReportEntries(
  db: Db,
  actor: Actor,
  definition: RunDefinition,
  timeZone: string | undefined,
  page: { after?: EntryKey; limit: number },
): Promise<{ run: ReportRun; entries: ReportEntry[] }> {
  const run = await prepareReportRun(db, actor, definition, timeZone);
  return { run, entries: await reportEntriesPage(db, run.spec, page) };
}
