/** The change feed (migration 0010), written only by the changes area. */

export interface ChangeFeedsTable {
  organization_id: string;
  /** The last position given in the workspace (on PostgreSQL taken at COMMIT). */
  position: number;
  /** Events at or before this position have been pruned: a cursor before it answers 410. */
  pruned_through: number;
}

export interface ChangeEventsTable {
  id: string;
  organization_id: string;
  /** The event's place in the workspace's commit order; null on PostgreSQL until its COMMIT. */
  position: number | null;
  type: string;
  /** The kind of record (activity, project, member, …): decides which permission reads it. */
  resource: string;
  /** The user the record belongs to (an activity's, a member's, a cost rate's, a request's creator). */
  subject_user_id: string | null;
  /** The project the record belongs to (a project's own id for a project). */
  project_id: string | null;
  actor_id: string | null;
  /** The client a client event is about (migration 0016): a User reads it when a project of theirs has it. */
  client_id: string | null;
  /** JSON: the record after the change, as the API renders it; `{id}` for a deletion. */
  data: string;
  created_at: string;
}
