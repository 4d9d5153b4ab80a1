import type { TimeDimension } from './buckets.js';
import type { EntryFilters } from './filters.js';
import type { ReportPeriod } from './period.js';
import type { Rounding } from './rounding.js';

/*
 * What a report run selects, as data (docs/rules.md §6 Reports): which entries it counts, and the
 * entries and groups the repositories (entries-repository.ts, summary-repository.ts) answer with.
 */

/**
 * Whose records a run reaches, as the policy answered for the caller: every one of the workspace, or
 * some of one user's (the repositories hold the scopes that say which: domain/policy.ts ReaderScope).
 */
export type Reach = { all: true } | { all: false; userId: string };

/** Everything that decides which entries a run counts and how (made by resolveRun, engine/run.ts). */
export interface EntrySelection<R extends Reach = Reach> {
  organizationId: string;
  /** `[start, end)`, canonical UTC, within the instants both stores compute with (see clampPeriod). */
  period: ReportPeriod;
  rounding: Rounding;
  filters: EntryFilters;
  selectedProjects: string[] | null;
  selectedProjectMembers: string[] | null;
  showArchivedProjects: boolean;
  showArchivedMembers: boolean;
  /** Whose activities the caller sees: exactly GET /activities' visibility (policy `activities:read`). */
  entries: R;
  /** Whose revenue the caller may read (policy `reports:revenue`); null when the run shows no revenue. */
  revenue: R | null;
}

/** What a group sums of its entries. */
export interface GroupSums {
  entries: number;
  billableEntries: number;
  /** Rounded seconds. */
  time: number;
  billableTime: number;
}

/**
 * One group of a summary: entries of one user on one project (or none), with one task (grouped by
 * task) and one tag (grouped by tag), in one bucket of each time dimension, under one pair of rates.
 */
export interface SummaryGroup extends GroupSums {
  userId: string;
  projectId: string | null;
  memberId: string | null;
  /** The project's client (grouped by client; null: none, or no project). */
  clientId?: string | null;
  /** Grouped by task: the entries' task (null: none). */
  taskId?: string | null;
  /** Grouped by tag: one tag the entries carry (null: they carry none). */
  tagId?: string | null;
  /**
   * Grouped by tag: the part of the group that counts its entries once, whatever their number of
   * tags (each entry counts here in exactly one of its tags' groups): what rows above the tag
   * dimension and the totals sum (docs/rules.md §6 Reports, "By tag").
   */
  once?: GroupSums;
  /** Per time dimension asked for: day `2026-07-01`, week `2026-W27`, month `2026-07`. */
  buckets: Partial<Record<TimeDimension, string>>;
  revenueRate: { currency: string; value: number } | null;
  costRate: { currency: string; value: number } | null;
  /** Whether the caller may read this group's revenue (reports:revenue on its project). */
  revenueReadable: boolean;
}

/** One entry of a report, with what the detailed report shows of it. */
export interface ReportEntry {
  id: string;
  name: string;
  userId: string;
  projectId: string | null;
  /** The entry's user's membership in its project, if any. */
  memberId: string | null;
  /** The entry's task and its name (null: none). */
  task: { id: string; name: string } | null;
  /** The entry's tags, in the order the activity has them. */
  tagIds: string[];
  billable: boolean;
  startedAt: string;
  endedAt: string;
  /** Whole seconds, milliseconds dropped. */
  duration: number;
  /** `duration` rounded by the organization's rounding (equal to it when rounding is off). */
  roundedDuration: number;
  /** The member's revenue rate in force at startedAt (null: none, or one the caller may not read). */
  revenueRate: { id: string; currency: string; value: number } | null;
  /** Whether the caller may read this entry's revenue at all. */
  revenueReadable: boolean;
  /** The user's cost rate in force at startedAt (null: none). */
  costRate: { id: string; currency: string; value: number } | null;
}

/** Where a page of entries starts: after this entry in (startedAt, id) order. */
export interface EntryKey {
  startedAt: string;
  id: string;
}
