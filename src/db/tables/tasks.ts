import type { DbBool } from './types.js';

/** The tasks of a project (migration 0018), written only by the tasks area. */
export interface TasksTable {
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  /** The name case-folded: unique within the project (tasks_name_unique). */
  name_key: string;
  archived: DbBool;
  /** Null: the project's billable applies. */
  billable: DbBool | null;
  created_at: string;
  updated_at: string;
}
