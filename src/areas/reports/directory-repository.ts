import type { Db } from '../../db/database.js';
import { isProjectAdminRole } from '../../db/record-scopes.js';
import { fromDbBool } from '../../db/values.js';
import type { Directory, DirectoryParts } from './engine/directory.js';

/**
 * The directory of the workspace: the names a report shows, and what it fills empty rows with.
 * Memberships, clients, tasks and tags are read only when the report needs them (`parts`: a member,
 * client, task or tag dimension, or empty rows to fill): a workspace has many more memberships and
 * tasks than projects and users.
 */
export async function readDirectory(db: Db, organizationId: string, parts: DirectoryParts): Promise<Directory> {
  const [projects, users, members, clients, tasks, tags] = await Promise.all([
    db.selectFrom('projects').select(['id', 'name', 'archived', 'client_id']).where('organization_id', '=', organizationId).execute(),
    db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.account_id')
      .select(['users.id', 'users.name', 'accounts.email', 'users.archived'])
      .where('users.organization_id', '=', organizationId)
      .execute(),
    parts.members
      ? db.selectFrom('project_members').select(['id', 'project_id', 'user_id', 'archived', 'role']).where('organization_id', '=', organizationId).execute()
      : [],
    parts.clients ? db.selectFrom('clients').select(['id', 'name']).where('organization_id', '=', organizationId).execute() : [],
    // By the workspace's projects: tasks are indexed by project.
    parts.tasks
      ? db
          .selectFrom('tasks')
          .select(['id', 'project_id', 'name'])
          .where('project_id', 'in', (projectsOf) => projectsOf.selectFrom('projects').select('id').where('organization_id', '=', organizationId))
          .execute()
      : [],
    parts.tags ? db.selectFrom('tags').select(['id', 'name']).where('organization_id', '=', organizationId).execute() : [],
  ]);
  return {
    projects: new Map(projects.map((row) => [row.id, { name: row.name, archived: fromDbBool(row.archived), clientId: row.client_id }])),
    users: new Map(users.map((row) => [row.id, { label: row.name ?? row.email, archived: fromDbBool(row.archived) }])),
    members: new Map(
      members.map((row) => [row.id, { projectId: row.project_id, userId: row.user_id, archived: fromDbBool(row.archived), admin: isProjectAdminRole(row.role) }]),
    ),
    clients: new Map(clients.map((row) => [row.id, { name: row.name }])),
    tasks: new Map(tasks.map((row) => [row.id, { projectId: row.project_id, name: row.name }])),
    tags: new Map(tags.map((row) => [row.id, { name: row.name }])),
  };
}

/** Whether the user administers some project of the workspace (the question is written once, in db/record-scopes.ts). */
export { administersSomeProject } from '../../db/record-scopes.js';
