import { isTimeDimension, type TimeDimension } from './buckets.js';
import type { Directory } from './directory.js';
import type { EntrySelection } from './selection.js';
import type { Dimension, TreeContext } from './tree.js';

type Key = string | null;

/**
 * The keys hideEmptyRows false shows with zeros (docs/rules.md §6 Reports, "Empty rows"): every bucket
 * of the period; the projects, users and members whose entries the caller could see in this report
 * (an Administrator: the workspace's; a User: their own and those of the projects they administer),
 * without archived ones unless shown, narrowed by the selections and the id filters; the clients and
 * tasks of those projects; every tag but those a `none` filter leaves out. Under a project, users and
 * members are the project's members, clients its client, tasks its tasks; under a user or member,
 * projects (and their clients and tasks) are theirs; under a client, its projects; under a task, its
 * project. Under a row of no project, member, client, task or tag only days, weeks and months are filled.
 */
export function fillDomain(directory: Directory, spec: EntrySelection, buckets: Map<TimeDimension, string[]>): TreeContext['domain'] {
  const everything = spec.entries.all;
  const me = spec.entries.all ? null : spec.entries.userId;
  const { filters } = spec;
  const administered = new Set<string>();
  for (const member of directory.members.values()) if (member.userId === me && member.admin && !member.archived) administered.add(member.projectId);
  const userAllowed = (userId: string) => {
    const user = directory.users.get(userId);
    return user !== undefined && (spec.showArchivedMembers || !user.archived) && filters.userIds.every((ids) => ids.includes(userId));
  };
  const clientOf = (projectId: string) => directory.projects.get(projectId)?.clientId ?? null;
  const projectAllowed = (projectId: string) => {
    const project = directory.projects.get(projectId);
    return (
      project !== undefined &&
      (spec.showArchivedProjects || !project.archived) &&
      (spec.selectedProjects === null || spec.selectedProjects.includes(projectId)) &&
      filters.projectIds.every(({ ids }) => ids.includes(projectId)) &&
      filters.clientIds.every(({ ids, noClient }) => (project.clientId === null ? noClient : ids.includes(project.clientId)))
    );
  };
  const members = [...directory.members.entries()].filter(
    ([id, member]) =>
      (everything || member.userId === me || administered.has(member.projectId)) &&
      (spec.showArchivedMembers || !member.archived) &&
      (spec.selectedProjectMembers === null || spec.selectedProjectMembers.includes(id)) &&
      userAllowed(member.userId) &&
      projectAllowed(member.projectId),
  );
  const usersOfProject = new Map<string, Set<string>>();
  const projectsOfUser = new Map<string, Set<string>>();
  for (const [, member] of members) {
    if (!usersOfProject.has(member.projectId)) usersOfProject.set(member.projectId, new Set());
    if (!projectsOfUser.has(member.userId)) projectsOfUser.set(member.userId, new Set());
    usersOfProject.get(member.projectId)!.add(member.userId);
    projectsOfUser.get(member.userId)!.add(member.projectId);
  }
  // Without every record in reach, or with members selected, only those the kept members lead to.
  const narrowed = !everything || spec.selectedProjectMembers !== null;
  const projects = [...directory.projects.keys()].filter((id) => projectAllowed(id) && (!narrowed || usersOfProject.has(id)));
  const users = [...directory.users.keys()].filter(
    (id) => userAllowed(id) && (!narrowed || projectsOfUser.has(id) || (id === me && spec.selectedProjectMembers === null)),
  );
  const keptProjects = new Set(projects);
  const clients = [...new Set(projects.map(clientOf))].filter((id): id is string => id !== null && directory.clients.has(id));
  const tasks = [...directory.tasks.entries()]
    .filter(([id, task]) => keptProjects.has(task.projectId) && filters.taskIds.every(({ ids }) => ids.includes(id)))
    .map(([id]) => id);
  const tags = [...directory.tags.keys()].filter((id) => filters.tagIds.every(({ ids, match }) => match !== 'none' || !ids.includes(id)));
  const taskProject = (taskId: string) => directory.tasks.get(taskId)?.projectId;

  /** Whether a project fits the client and task rows above it. */
  const projectFits = (projectId: string, path: ReadonlyMap<Dimension, Key>) =>
    (!path.has('client') || clientOf(projectId) === path.get('client')) && (!path.has('task') || taskProject(path.get('task')!) === projectId);
  /** The projects of the rows above (null: no project, member or user row constrains them). */
  const projectsAbove = (path: ReadonlyMap<Dimension, Key>): string[] | null => {
    if (path.has('project')) return [path.get('project')!];
    if (path.has('member')) {
      const member = directory.members.get(path.get('member')!);
      return member === undefined ? [] : [member.projectId];
    }
    if (path.has('user')) return [...(projectsOfUser.get(path.get('user')!) ?? [])];
    return null;
  };
  /** Whether a user fits the client and task rows above it: a kept member of one of their projects. */
  const userFits = (userId: string, path: ReadonlyMap<Dimension, Key>) =>
    (!path.has('client') && !path.has('task')) || [...(projectsOfUser.get(userId) ?? [])].some((projectId) => projectFits(projectId, path));

  return (dimension, path) => {
    if (isTimeDimension(dimension)) return buckets.get(dimension)!;
    for (const [above, key] of path) if (key === null && !isTimeDimension(above)) return [];
    const project = path.get('project');
    const user = path.get('user');
    const member = path.has('member') ? directory.members.get(path.get('member')!) : undefined;
    switch (dimension) {
      case 'project': {
        const kept = path.has('member')
          ? member === undefined
            ? []
            : projects.filter((id) => id === member.projectId)
          : user === undefined
            ? projects
            : projects.filter((id) => projectsOfUser.get(user!)?.has(id));
        return kept.filter((id) => projectFits(id, path));
      }
      case 'user': {
        const kept = path.has('member')
          ? member === undefined
            ? []
            : users.filter((id) => id === member.userId)
          : project === undefined
            ? users
            : users.filter((id) => usersOfProject.get(project!)?.has(id));
        return kept.filter((id) => userFits(id, path));
      }
      case 'member':
        return members
          .filter(([, m]) => (project === undefined || m.projectId === project) && (user === undefined || m.userId === user) && projectFits(m.projectId, path))
          .map(([id]) => id);
      case 'client': {
        const above = projectsAbove(path);
        const candidates = above === null ? projects : above.filter((id) => keptProjects.has(id));
        const fitting = new Set(candidates.filter((id) => projectFits(id, path)).map(clientOf));
        return clients.filter((id) => fitting.has(id));
      }
      case 'task': {
        const above = projectsAbove(path);
        const allowed = above === null ? null : new Set(above);
        return tasks.filter((id) => {
          const of = taskProject(id)!;
          return (allowed === null || allowed.has(of)) && projectFits(of, path);
        });
      }
      case 'tag':
        return tags;
    }
  };
}
