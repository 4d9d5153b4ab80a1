import { api } from '../../api/client.js';
import type { WorkflowRequest } from './describe.js';

type Status = 'RESOLVED' | 'REJECTED';

/** Resolves or rejects a request at the route of its own kind (docs/rules.md §6 Requests). */
export function resolveRequest(request: WorkflowRequest, status: Status, projectIds: string[] = []) {
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
