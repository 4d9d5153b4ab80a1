import type { DbBool } from './types.js';

/** A workspace's clients (migration 0016), written only by the clients area. */
export interface ClientsTable {
  id: string;
  organization_id: string;
  name: string;
  /** The case-folded trimmed name: the key of the case-insensitive uniqueness per workspace. */
  name_key: string;
  archived: DbBool;
  notes: string | null;
  created_at: string;
  updated_at: string;
}
