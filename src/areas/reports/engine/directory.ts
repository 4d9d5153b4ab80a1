/** The workspace's projects, users and memberships as a report names and fills them (read by directory-repository.ts). */
export interface Directory {
  projects: Map<string, { name: string; archived: boolean }>;
  /** A user's label: their name, or their email when they have none. */
  users: Map<string, { label: string; archived: boolean }>;
  members: Map<string, { projectId: string; userId: string; archived: boolean; admin: boolean }>;
}
