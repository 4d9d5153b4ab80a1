import type { Activity } from '../api/client.js';
import { clients } from './clients.js';
import { projects } from './projects.js';
import { taskOf } from './tasks.js';

/** "Client · Project · Task" of an activity, as far as it has them. */
export function workOf(activity: Activity): string {
  const project = activity.projectId ? projects.value[activity.projectId] : undefined;
  const client = project?.clientId ? clients.value[project.clientId] : undefined;
  const task = taskOf(activity.projectId, activity.taskId);
  if (!project) return 'No project';
  return [client?.name, project.name, task?.name].filter(Boolean).join(' · ');
}
