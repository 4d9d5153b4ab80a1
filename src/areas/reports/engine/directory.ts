/** The workspace's records as a report names and fills them (read by directory-repository.ts). */
export interface Directory {
  projects: Map<string, { name: string; archived: boolean; clientId: string | null }>;
  /** A user's label: their name, or their email when they have none. */
  users: Map<string, { label: string; archived: boolean }>;
  members: Map<string, { projectId: string; userId: string; archived: boolean; admin: boolean }>;
  /** Read when a report asks for them (DirectoryParts); empty otherwise. */
  clients: Map<string, { name: string }>;
  tasks: Map<string, { projectId: string; name: string }>;
  tags: Map<string, { name: string }>;
}

/** Which of the larger parts of the directory a report reads: memberships, clients, tasks, tags. */
export interface DirectoryParts {
  members: boolean;
  clients: boolean;
  tasks: boolean;
  tags: boolean;
}
