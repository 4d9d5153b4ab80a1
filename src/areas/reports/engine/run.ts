import type { ReportDefinition } from '../rules.js';
import { parseFilters } from './filters.js';
import { clampPeriod, resolvePeriod, type ReportPeriod } from './period.js';
import type { Rounding } from './rounding.js';
import type { EntrySelection, Reach } from './selection.js';

/** What a run needs of a definition: a saved report's fields, or an ad-hoc body's. */
export type RunDefinition = Omit<ReportDefinition, 'pinned'>;

/** A definition made ready to run for one caller: its period, zone, rounding, access and selection. */
export interface ReportRun<R extends Reach = Reach> {
  definition: RunDefinition;
  period: ReportPeriod;
  timeZone: string;
  rounding: Rounding;
  /** Filter objects the grammar does not understand, as sent (docs/rules.md §6 Reports). */
  ignoredFilters: Array<Record<string, unknown>>;
  spec: EntrySelection<R>;
}

/** What the caller's workspace and access make of a run: decided before it (run-preparation.ts). */
export interface RunContext<R extends Reach> {
  organizationId: string;
  timeZone: string;
  rounding: Rounding;
  entries: R;
  revenue: R | null;
}

/** The run of a definition in its context, at `now`: its period resolved and clamped, its filters parsed. */
export function resolveRun<R extends Reach>(definition: RunDefinition, context: RunContext<R>, now: Date = new Date()): ReportRun<R> {
  const { organizationId, timeZone, rounding, entries, revenue } = context;
  const period = clampPeriod(resolvePeriod(definition, timeZone, now));
  const { filters, ignored } = parseFilters(definition.filters);
  const spec: EntrySelection<R> = {
    organizationId,
    period,
    rounding,
    filters,
    selectedProjects: definition.selectedProjects ?? null,
    selectedProjectMembers: definition.selectedProjectMembers ?? null,
    showArchivedProjects: definition.showArchivedProjects ?? false,
    showArchivedMembers: definition.showArchivedMembers ?? false,
    entries,
    revenue,
  };
  return { definition, period, timeZone, rounding, ignoredFilters: ignored, spec };
}
