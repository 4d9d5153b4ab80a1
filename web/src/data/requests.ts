import { computed, signal } from '@preact/signals';
import { api, type Schemas } from '../api/client.js';

export type WorkflowRequest = Schemas['WorkflowRequestDetail'];
type Resolution = 'RESOLVED' | 'REJECTED';

/** The requests the person may list (every one for an administrator, their own otherwise), by id; null until loaded. */
export const requests = signal<Record<string, WorkflowRequest> | null>(null);

/** Pending requests the person should look at: every pending one for an administrator, their own otherwise. */
export const pendingRequests = computed(() =>
  requests.value === null ? null : Object.values(requests.value).filter((request) => request.status === 'PENDING').length,
);

export async function loadRequests(): Promise<void> {
  const answer = await api.GET('/requests');
  if (answer.data) requests.value = answer.data;
}

/** Asks an administrator to unlock a week of the person's timesheet; the API's message when refused. */
export async function requestUnlock(year: number, week: number): Promise<string | null> {
  const answer = await api.POST('/requests/timesheets/{year}/{week}/unlock', { params: { path: { year: String(year), week: String(week) } } });
  await loadRequests();
  return answer.error ? answer.error.detail : null;
}

/** Submits a week of the person's timesheet for approval; the API's message when refused. */
export async function requestApproval(year: number, week: number): Promise<string | null> {
  const answer = await api.POST('/requests/timesheets/{year}/{week}/approvals', { params: { path: { year: String(year), week: String(week) } } });
  await loadRequests();
  return answer.error ? answer.error.detail : null;
}

/** Asks an administrator to choose projects for the person. */
export function askForProjects() {
  return api.POST('/requests/projects/request-assignment');
}

/** Resolves or rejects a request at the route of its own kind (docs/rules.md §6 Requests). */
export function resolveRequest(request: WorkflowRequest, status: Resolution, projectIds: string[] = []) {
  const params = { path: { requestId: request.id } };
  switch (request.type) {
    case 'roleChange':
      return api.PUT('/requests/{requestId}/projects/members/role', { params, body: { status } });
    case 'assignment':
      return api.PUT('/requests/{requestId}/projects/members', { params, body: { status } });
    case 'projectAssignment':
      return api.PUT('/requests/{requestId}/projects/assign', { params, body: status === 'RESOLVED' ? { status, projectIds } : { status } });
    case 'impersonation':
      return api.PUT('/requests/{requestId}', { params, body: { status } });
    case 'timesheetUnlock':
      return api.PUT('/requests/{requestId}/timesheets/unlock', { params, body: { status } });
    case 'timesheetApproval':
      return api.PUT('/requests/{requestId}/timesheets/approvals', { params, body: { status } });
  }
}
