import type { DbBool } from './types.js';

/** The tags of a workspace (migration 0017), written only by the tags area. */
export interface TagsTable {
  id: string;
  organization_id: string;
  name: string;
  /** The name case-folded: unique in the workspace (tags_name_unique). */
  name_key: string;
  archived: DbBool;
  created_at: string;
  updated_at: string;
}
