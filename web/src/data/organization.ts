import { signal } from '@preact/signals';
import { api, type Organization, type Problem, type Schemas } from '../api/client.js';

/** This workspace's organization (settings, timesheet locking); null until loaded. */
export const organization = signal<Organization | null>(null);

export async function loadOrganization(): Promise<void> {
  const answer = await api.GET('/organization');
  organization.value = answer.data ?? null;
}

/** Saves part of the organization (nested objects are merged by the API) and keeps the answer. */
export async function saveOrganization(body: Schemas['UpdateOrganizationBody']): Promise<Problem | undefined> {
  const answer = await api.PUT('/organization', { body });
  if (answer.data) organization.value = answer.data;
  return answer.error;
}

/** Runs the automatic timesheet lock now (what a scheduler normally does); the organization comes back with its last locked week. */
export async function runAutoLock(reason: string) {
  const answer = await api.PUT('/timesheets/auto-lock', { body: { reason } });
  if (answer.data) organization.value = answer.data;
  return answer;
}

/** Sends the timesheet reminders now (what a scheduler normally does). */
export function sendTimesheetReminders(reason: string) {
  return api.POST('/timesheets/reminder', { body: { reason } });
}

/** Moves the workspace to another address at once; the page then goes there. */
export function renameWorkspace(domain: string) {
  return api.POST('/organization/rename', { body: { domain } });
}

/** Deletes the workspace for good; the answer says where to go next. */
export function deleteWorkspace() {
  return api.DELETE('/organization');
}
