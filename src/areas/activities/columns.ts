import { renderedFieldsOf, type RenderedColumns } from '../../db/rendered-entries.js';
import { Activity } from './schemas.js';

/**
 * The column each field of a listed activity is read from, by the Activity schema's keys (every key
 * required, so a new field of the schema fails to compile until it has one): with the schema, what
 * `npm run db:listing` builds the listing index from, and what the repository maps rows and records
 * by (docs/architecture.md "Add a field").
 */
export const ACTIVITY_COLUMNS: RenderedColumns<typeof Activity> = {
  id: 'id',
  name: 'name',
  billable: 'billable',
  startedAt: 'started_at',
  endedAt: 'ended_at',
  projectId: 'project_id',
  userId: 'user_id',
  taskId: 'task_id',
  tagIds: 'tag_ids',
};

/** The Activity schema's fields, each with its column and how it is stored: the listing's, the row mapping's. */
export const ACTIVITY_FIELDS = renderedFieldsOf(Activity, ACTIVITY_COLUMNS);
