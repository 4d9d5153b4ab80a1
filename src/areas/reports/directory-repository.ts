import type { Db } from '../../db/database.js';
import { isProjectAdminRole } from '../../db/record-scopes.js';
import { fromDbBool } from '../../db/values.js';
import type { Directory } from './engine/directory.js';

/**
 * The directory of the workspace: the names a report shows, and what it fills empty rows with.
 * Memberships are read only `withMembers` (a member dimension, or empty rows to fill): a workspace
 * has many more of them than projects and users.
 */
export async function readDirectory(db: Db, organizationId: string, withMembers: boolean): Promise<Directory> {
  const [projects, users, members] = await Promise.all([
    db.selectFrom('projects').select(['id', 'name', 'archived']).where('organization_id', '=', organizationId).execute(),
    db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.account_id')
      .select(['users.id', 'users.name', 'accounts.email', 'users.archived'])
      .where('users.organization_id', '=', organizationId)
      .execute(),
    withMembers
      ? db.selectFrom('project_members').select(['id', 'project_id', 'user_id', 'archived', 'role']).where('organization_id', '=', organizationId).execute()
      : [],
  ]);
  return {
    projects: new Map(projects.map((row) => [row.id, { name: row.name, archived: fromDbBool(row.archived) }])),
    users: new Map(users.map((row) => [row.id, { label: row.name ?? row.email, archived: fromDbBool(row.archived) }])),
    members: new Map(
      members.map((row) => [row.id, { projectId: row.project_id, userId: row.user_id, archived: fromDbBool(row.archived), admin: isProjectAdminRole(row.role) }]),
    ),
  };
}

/** Whether the user administers some project of the workspace (the question is written once, in db/record-scopes.ts). */
export { administersSomeProject } from '../../db/record-scopes.js';
