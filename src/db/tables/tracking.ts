import type { Generated } from 'kysely';
import type { DbBool } from './types.js';

export interface ProjectsTable {
  id: string;
  organization_id: string;
  name: string;
  /** Lowercased trimmed name: the key of the case-insensitive uniqueness per workspace. */
  name_key: string;
  archived: DbBool;
  billable: DbBool;
  avatar: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
  /** The project's client (migration 0016): a client with projects cannot be deleted. */
  client_id: string | null;
  /** Lowercase `#rrggbb` (migration 0016). */
  color: string;
}

export interface ProjectMembersTable {
  id: string;
  organization_id: string;
  project_id: string;
  user_id: string;
  role: string;
  archived: DbBool;
  assigned_by: string | null;
  title: string | null;
  notes: string | null;
  /** JSON array of strings, or null. */
  tags: string | null;
  created_at: string;
  updated_at: string;
}

export interface ActivitiesTable {
  id: string;
  organization_id: string;
  user_id: string;
  project_id: string | null;
  name: string;
  billable: DbBool;
  started_at: string;
  /** Null while the timer runs. */
  ended_at: string | null;
  created_at: string;
  updated_at: string;
  /** The activity's task (migration 0019); null when the task is deleted. */
  task_id: string | null;
  /** The tag ids as a JSON array text, `[]` for none (migration 0019); activity_tags holds the same links. */
  tag_ids: Generated<string>;
}

/** Per user, the longest closed activity when it is over a day (migration 0005): the look-back of `from`. */
export interface ActivityLengthBoundsTable {
  user_id: string;
  organization_id: string;
  longest_seconds: number;
}

/** Columns shared by revenue rates (per project member) and cost rates (per user). */
interface RateColumns {
  id: string;
  organization_id: string;
  currency: string;
  from_at: string;
  to_at: string | null;
  tax_rate: number;
  value: number;
  created_at: string;
  updated_at: string;
}

export interface RevenueRatesTable extends RateColumns {
  project_id: string;
  member_id: string;
}

export interface CostRatesTable extends RateColumns {
  user_id: string;
}
