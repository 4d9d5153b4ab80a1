import type { DbBool } from './types.js';

export interface OrganizationsTable {
  id: string;
  domain: string;
  name: string;
  currency: string;
  time_zone: string;
  core_hours_start: string;
  core_hours_end: string;
  rounding_enabled: DbBool;
  rounding_interval: number;
  rounding_mode: string;
  locking_enabled: DbBool;
  locking_time_zone: string | null;
  unlock_duration: number;
  lock_year: number | null;
  lock_week: number | null;
  /** JSON object or null. */
  holidays: string | null;
  notes: string | null;
  /** JSON object: onboarding step flags. */
  onboarding: string;
  plan: string;
  created_at: string;
  updated_at: string;
}

/** Every domain a workspace has held; former ones stay reserved to it after a rename. */
export interface OrganizationDomainsTable {
  domain: string;
  organization_id: string;
  created_at: string;
}

/** The domains of deleted workspaces, reserved until reserved_until (migration 0006). */
export interface RetiredDomainsTable {
  domain: string;
  retired_at: string;
  reserved_until: string;
}

