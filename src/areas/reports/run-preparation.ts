import type { Db } from '../../db/database.js';
import type { Actor } from '../../domain/actor.js';
import { forbidden } from '../../domain/errors.js';
import { reachesAll, readerScope, type ReaderScope } from '../../domain/policy.js';
import { canonicalTimeZone } from '../../lib/time-zones.js';
import { preferredTimeZone } from '../users/index.js';
import { getOrganization } from '../workspace/index.js';
import { administersSomeProject } from './directory-repository.js';
import { NO_ROUNDING } from './engine/rounding.js';
import { resolveRun, type ReportRun as RunOf, type RunDefinition } from './engine/run.js';
import type { EntryKey, ReportEntry } from './engine/selection.js';
import { reportEntriesPage } from './entries-repository.js';

/*
 * The first step of every report run, summary and detailed alike (run-service.ts): the caller's
 * workspace, zone and access, asked of the other areas, the policy and the repositories, and the
 * engine's run made of them.
 */

export type { RunDefinition };

/** A run for one caller, its access as the policy's scopes (what the repositories narrow rows by). */
export type ReportRun = RunOf<ReaderScope> & {
  /** The workspace's name, read with its settings: what a file is titled with. */
  workspaceName: string;
};

/**
 * The report's time zone: the `timeZone` query (422 when it names no IANA zone), else the caller's
 * preference, else the organization's, else UTC.
 */
async function reportTimeZone(db: Db, actor: Actor, asked: string | undefined, organizationZone: string | undefined): Promise<string> {
  if (asked !== undefined) return canonicalTimeZone(asked, '/query/timeZone');
  return (await preferredTimeZone(db, actor.userId)) ?? organizationZone ?? 'UTC';
}

/**
 * Who sees money (docs/rules.md §6 Reports), the policy's `reports:cost` and `reports:revenue`:
 * cost and profit need every user's cost rates; revenue needs some project's revenue rates (an
 * Administrator every project's, a project admin those they administer). Asking for a metric one may
 * read none of is 403 naming it. Answers whose revenue the caller reads (null: no revenue asked for).
 */
async function moneyAccess(db: Db, actor: Actor, metrics: readonly string[]): Promise<ReaderScope | null> {
  for (const metric of ['cost', 'profit']) {
    if (metrics.includes(metric) && !reachesAll(actor, 'reports:cost')) {
      throw forbidden(`The metric ${metric} needs the cost rates of every user: only administrators may ask for it.`);
    }
  }
  if (!metrics.includes('revenue') && !metrics.includes('profit')) return null;
  const scope = readerScope(actor, 'reports:revenue');
  const readsSome = scope.all || (scope.scopes.includes('administered') && (await administersSomeProject(db, actor.organizationId, actor.userId)));
  if (!readsSome) {
    throw forbidden('The metric revenue needs revenue rates: only administrators and project admins (for the projects they administer) may ask for it.');
  }
  return scope;
}

export async function prepareReportRun(db: Db, actor: Actor, definition: RunDefinition, timeZone?: string): Promise<ReportRun> {
  const organization = await getOrganization(db, actor.organizationId);
  const zone = await reportTimeZone(db, actor, timeZone, organization.timeZone);
  const revenue = await moneyAccess(db, actor, definition.metrics);
  const run = resolveRun(definition, {
    organizationId: actor.organizationId,
    timeZone: zone,
    rounding: organization.rounding ?? NO_ROUNDING,
    entries: readerScope(actor, 'activities:read'),
    revenue,
  });
  return { ...run, workspaceName: organization.name };
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
