/** Workflow requests, timesheet locks and the one-time support sign-in tokens (migration 0004). */

export interface RequestsTable {
  id: string;
  organization_id: string;
  /** The kind of request: roleChange, assignment, projectAssignment, impersonation, timesheetUnlock, timesheetApproval. */
  type: string;
  /** PENDING, RESOLVED or REJECTED. */
  status: string;
  /** The requesting user; null for requests made outside any user (the CLI's impersonation request). */
  created_by: string | null;
  created_at: string;
  resolved_at: string | null;
  /** The resolving administrator; null while pending, or once that user is deleted. */
  resolved_by: string | null;
  /** JSON object: what the request is about (projectId, memberId, role, userIds, year, week, projectIds, reason). */
  payload: string;
}

/** One record per user and ISO week: the week is locked for the user unless unlocked_to is in the future. */
export interface TimesheetLocksTable {
  id: string;
  organization_id: string;
  user_id: string;
  /** ISO week-numbering year. */
  year: number;
  /** ISO week number, 1–53. */
  week: number;
  unlocked_to: string | null;
  created_at: string;
  updated_at: string;
}

/** The timesheet reminder written for a workspace's ISO week (migration 0022): at most one per week. */
export interface TimesheetRemindersTable {
  organization_id: string;
  year: number;
  week: number;
  /** How many messages it wrote. */
  messages: number;
  sent_at: string;
}

/** Single-use sign-in tokens sent to the support address when an impersonation request is resolved. */
export interface OneTimeTokensTable {
  id: string;
  organization_id: string;
  /** The resolving administrator: the session the token yields acts as this user. */
  user_id: string;
  /** SHA-256 of the token, hex; the token itself is never stored. */
  token_hash: string;
  expires_at: string;
  /** Set when redeemed; a used token never works again. */
  used_at: string | null;
  created_at: string;
  /** What redeeming it does: `support`, `sign-in`, `invitation` or `password-reset` (OneTimePurpose). */
  purpose: string;
}
