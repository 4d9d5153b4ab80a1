import { signal } from '@preact/signals';
import { api, type Schemas, type Task } from '../api/client.js';
import { announceChange, changes } from './changes.js';

/** The tasks of each project loaded so far, by project id, then by task id (archived ones included). */
export const tasksByProject = signal<Record<string, Record<string, Task>>>({});

export async function loadTasks(projectId: string): Promise<void> {
  const answer = await api.GET('/projects/{projectId}/tasks', { params: { path: { projectId } } });
  // A project the person may not read (404) offers them no task.
  const tasks = answer.data ?? (answer.response.status === 404 ? {} : undefined);
  if (tasks) tasksByProject.value = { ...tasksByProject.value, [projectId]: tasks };
}

/** The change tick each project's tasks were last asked for at (docs/web-app.md "Changes"). */
const askedAt = new Map<string, number>();

/**
 * Loads the tasks of these projects unless they were asked for since the last change: the pickers and
 * the pages showing entries ask for the projects they show, as often as they draw.
 */
export function ensureTasks(projectIds: Iterable<string | null>): void {
  const tick = changes.peek();
  for (const projectId of projectIds) {
    if (projectId === null || askedAt.get(projectId) === tick) continue;
    askedAt.set(projectId, tick);
    void loadTasks(projectId);
  }
}

/** A project's task, when its tasks are loaded and it is among them. */
export const taskOf = (projectId: string | null, taskId: string | null): Task | undefined =>
  projectId && taskId ? tasksByProject.value[projectId]?.[taskId] : undefined;

function keepTask(task: Task): void {
  tasksByProject.value = { ...tasksByProject.value, [task.projectId]: { ...tasksByProject.value[task.projectId], [task.id]: task } };
}

/** Administrators and the project's admins write its tasks. */
export async function createTask(projectId: string, body: Schemas['CreateProjectTaskBody']) {
  const answer = await api.POST('/projects/{projectId}/tasks', { params: { path: { projectId } }, body });
  if (answer.data) {
    keepTask(answer.data);
    announceChange();
  }
  return answer;
}

export async function updateTask(projectId: string, taskId: string, body: Schemas['UpdateProjectTaskBody']) {
  const answer = await api.PUT('/projects/{projectId}/tasks/{taskId}', { params: { path: { projectId, taskId } }, body });
  if (answer.data) {
    keepTask(answer.data);
    announceChange();
  }
  return answer;
}

/** Deletes a task: its activities keep their time, without a task. */
export async function deleteTask(projectId: string, taskId: string) {
  const answer = await api.DELETE('/projects/{projectId}/tasks/{taskId}', { params: { path: { projectId, taskId } } });
  if (!answer.error) {
    const rest = { ...tasksByProject.value[projectId] };
    delete rest[taskId];
    tasksByProject.value = { ...tasksByProject.value, [projectId]: rest };
    announceChange();
  }
  return answer;
}
