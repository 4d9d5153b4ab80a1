import type { Harness, TestUser, TestWorkspace } from '../harness.js';
import { createImpersonationRequest } from '../src.js';
import { idOf, send, type Ref } from './records.js';

/** Every kind of request the API has. */
export const REQUEST_KINDS = ['roleChange', 'assignment', 'projectAssignment', 'impersonation', 'timesheetUnlock', 'timesheetApproval'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** What a request of each kind needs; `by` is who asks (every kind but impersonation). */
export type RequestState =
  | { kind: 'roleChange'; by: TestUser; project: Ref; member: Ref; role: 'Administrator' | 'User' }
  | { kind: 'assignment'; by: TestUser; project: Ref; users: TestUser[] }
  | { kind: 'projectAssignment'; by: TestUser }
  | { kind: 'timesheetUnlock' | 'timesheetApproval'; by: TestUser; year: number; week: number }
  /** Made as the operator CLI makes it (no route makes one): the reason is the support ticket's. */
  | { kind: 'impersonation'; reason?: string };

/** A PENDING request of a kind, made through its route (impersonation: with the CLI's function); answers the request. */
export async function request(h: Harness, ws: TestWorkspace, state: RequestState): Promise<{ id: string } & Record<string, any>> {
  switch (state.kind) {
    case 'roleChange':
      return send(h, ws, state.by, 'POST', `/api/requests/projects/${idOf(state.project)}/members/${idOf(state.member)}/role`, {
        role: state.role,
      });
    case 'assignment':
      return send(h, ws, state.by, 'POST', `/api/requests/projects/${idOf(state.project)}/members`, {
        userIds: state.users.map((user) => user.userId),
      });
    case 'projectAssignment':
      return send(h, ws, state.by, 'POST', '/api/requests/projects/request-assignment');
    case 'timesheetUnlock':
      return send(h, ws, state.by, 'POST', `/api/requests/timesheets/${state.year}/${state.week}/unlock`);
    case 'timesheetApproval':
      return send(h, ws, state.by, 'POST', `/api/requests/timesheets/${state.year}/${state.week}/approvals`);
    case 'impersonation':
      return createImpersonationRequest(h.app.db, ws.organizationId, state.reason ?? 'test');
  }
}
