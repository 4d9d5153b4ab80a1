import { signal } from '@preact/signals';
import { api, type Project, type Schemas } from '../api/client.js';
import { dropById, keepById } from './by-id.js';
import { announceChange } from './changes.js';
import { trackedBy, type Tracked } from './tracked.js';

/** The projects the person may see (all of them for administrators), by id. */
export const projects = signal<Record<string, Project>>({});

export async function loadProjects(): Promise<void> {
  const answer = await api.GET('/projects');
  if (answer.data) projects.value = answer.data;
}

export async function createProject(body: Schemas['CreateProjectBody']) {
  const answer = await api.POST('/projects', { body });
  if (answer.data) {
    keepById(projects, answer.data);
    announceChange();
  }
  return answer;
}

export async function updateProject(projectId: string, body: Schemas['UpdateProjectBody']) {
  const answer = await api.PUT('/projects/{projectId}', { params: { path: { projectId } }, body });
  if (answer.data) keepById(projects, answer.data);
  return answer;
}

/** Deletes a project (its time is kept, without a project). */
export async function deleteProject(projectId: string) {
  const answer = await api.DELETE('/projects/{projectId}', { params: { path: { projectId } } });
  if (!answer.error) {
    dropById(projects, projectId);
    announceChange();
  }
  return answer;
}

/** The project's tracked time, for the deletion's confirmation: how many entries and how long. */
export const trackedOn = (projectId: string): Promise<Tracked> => trackedBy({ projectId });
