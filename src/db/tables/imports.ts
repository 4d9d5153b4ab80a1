import type { DbBool } from './types.js';

/** One import of a file (migration 0024; docs/rules.md §6 Imports). */
export interface ImportsTable {
  id: string;
  organization_id: string;
  /** The administrator who started it. */
  created_by: string;
  source: string;
  /** queued, running, succeeded or failed; queued and running are at most one per workspace. */
  status: string;
  dry_run: DbBool;
  mode: string;
  /** JSON: the time zone, date format and invite option it was started with. */
  options: string;
  rows: number;
  /** Rows read so far, for the progress bar. */
  rows_done: number;
  /** JSON: the counts of records created, by kind. */
  created: string;
  skipped: number;
  error_count: number;
  /** JSON array of the first 1,000 row errors. */
  errors: string;
  /** JSON array of warnings. */
  warnings: string;
  /** JSON `{start, end}`: from the first imported entry's start to the last one's end; null before it succeeds or when it imported none. */
  period: string | null;
  created_at: string;
  finished_at: string | null;
  /** Touched by the instance that runs it; an import whose heartbeat stopped is marked failed. */
  heartbeat_at: string;
}

/** An entry an import staged, applied to activities in the import's one transaction. */
export interface ImportEntriesTable {
  import_id: string;
  seq: number;
  organization_id: string;
  id: string;
  user_id: string;
  project_id: string | null;
  task_id: string | null;
  name: string;
  billable: DbBool;
  started_at: string;
  ended_at: string;
  tag_ids: string;
  source_key: string;
}

/**
 * Where an imported record came from: a row of one source is imported once per workspace. The record
 * is the activity of a CSV row, or any record of a timetrack export (its key `<table>:<exported id>`).
 */
export interface ImportKeysTable {
  organization_id: string;
  source: string;
  source_key: string;
  record_id: string;
  import_id: string;
}
