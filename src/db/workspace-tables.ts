/*
 * The tables of one workspace as its export holds them (docs/rules.md §6 Export), in the order a
 * restore writes them (each after every table it refers to). The data layer's own map of the records
 * a workspace owns: what refers to what, which JSON columns hold ids, and what never leaves the store.
 */

export interface WorkspaceTable {
  name: string;
  /** The column that identifies a row; absent for rows that belong to a parent (activity_tags, preferences). */
  id?: string;
  /** Columns that hold the id of a row of another table (or of this one). */
  refs: Readonly<Record<string, string>>;
  /** JSON columns whose text may hold ids of any exported table (a report's filters, a request's payload, tag ids). */
  jsonWithIds?: readonly string[];
  /** Columns never exported (secrets, derived bookkeeping), given fresh values by the restore. */
  omit?: readonly string[];
  /** Boolean columns (SQLite stores 0/1): exported as true/false. */
  booleans?: readonly string[];
  /** The row of a parent is required: the row is restored only when its parent was (not when the parent was skipped). */
  parent?: string;
}

export const WORKSPACE_TABLES: readonly WorkspaceTable[] = [
  { name: 'users', id: 'id', refs: {}, omit: ['account_id'], booleans: ['archived'] },
  { name: 'user_preferences', refs: { user_id: 'users' }, parent: 'user_id' },
  { name: 'clients', id: 'id', refs: {}, booleans: ['archived'] },
  { name: 'projects', id: 'id', refs: { client_id: 'clients' }, booleans: ['archived', 'billable'] },
  { name: 'project_members', id: 'id', refs: { project_id: 'projects', user_id: 'users', assigned_by: 'users' }, booleans: ['archived'] },
  { name: 'tasks', id: 'id', refs: { project_id: 'projects' }, booleans: ['archived', 'billable'] },
  { name: 'tags', id: 'id', refs: {}, booleans: ['archived'] },
  { name: 'revenue_rates', id: 'id', refs: { project_id: 'projects', member_id: 'project_members' } },
  { name: 'cost_rates', id: 'id', refs: { user_id: 'users' } },
  {
    name: 'activities',
    id: 'id',
    refs: { user_id: 'users', project_id: 'projects', task_id: 'tasks' },
    jsonWithIds: ['tag_ids'],
    booleans: ['billable'],
  },
  { name: 'activity_tags', refs: { activity_id: 'activities', tag_id: 'tags' }, parent: 'activity_id' },
  { name: 'reports', id: 'id', refs: { user_id: 'users' }, jsonWithIds: ['definition'] },
  { name: 'timesheet_locks', id: 'id', refs: { user_id: 'users' } },
  { name: 'requests', id: 'id', refs: { created_by: 'users', resolved_by: 'users' }, jsonWithIds: ['payload'] },
  { name: 'geofences', id: 'id', refs: { project_id: 'projects' } },
  {
    name: 'webhooks',
    id: 'id',
    refs: {},
    omit: ['secret_sealed', 'previous_secret_sealed', 'previous_secret_expires_at', 'next_seq', 'feed_position'],
    booleans: ['enabled'],
  },
];

/** The organization's settings an export carries (its id, domain and plan stay the target's). */
export const ORGANIZATION_SETTINGS = [
  'name',
  'currency',
  'time_zone',
  'core_hours_start',
  'core_hours_end',
  'rounding_enabled',
  'rounding_interval',
  'rounding_mode',
  'locking_enabled',
  'locking_time_zone',
  'unlock_duration',
  'lock_year',
  'lock_week',
  'holidays',
  'notes',
  'onboarding',
] as const;

export const ORGANIZATION_BOOLEANS = ['rounding_enabled', 'locking_enabled'];

/** The name and version of the export's format (its manifest says them). */
export const EXPORT_FORMAT = 'timetrack-export';
export const EXPORT_VERSION = 1;
