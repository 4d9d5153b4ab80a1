import type { Harness, TestUser, TestWorkspace } from '../harness.js';
import { createImpersonationRequest } from '../src.js';
import type { HasApp } from './people.js';
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

type Request = { id: string } & Record<string, any>;

/**
 * A PENDING request of a kind, made through its route (impersonation: with the CLI's function, so
 * the app and the workspace's id are enough for it); answers the request.
 */
export async function request(h: HasApp, ws: Pick<TestWorkspace, 'organizationId'>, state: { kind: 'impersonation'; reason?: string }): Promise<Request>;
export async function request(h: Harness, ws: TestWorkspace, state: RequestState): Promise<Request>;
export async function request(h: HasApp, ws: Pick<TestWorkspace, 'organizationId'>, state: RequestState): Promise<Request> {
  if (state.kind === 'impersonation') return createImpersonationRequest(h.app.db, ws.organizationId, state.reason ?? 'test');
  // Every other kind goes through the API: the second overload's harness and workspace.
  const [harness, workspace] = [h as Harness, ws as TestWorkspace];
  switch (state.kind) {
    case 'roleChange':
      return send(harness, workspace, state.by, 'POST', `/api/requests/projects/${idOf(state.project)}/members/${idOf(state.member)}/role`, {
        role: state.role,
      });
    case 'assignment':
      return send(harness, workspace, state.by, 'POST', `/api/requests/projects/${idOf(state.project)}/members`, {
        userIds: state.users.map((user) => user.userId),
      });
    case 'projectAssignment':
      return send(harness, workspace, state.by, 'POST', '/api/requests/projects/request-assignment');
    case 'timesheetUnlock':
      return send(harness, workspace, state.by, 'POST', `/api/requests/timesheets/${state.year}/${state.week}/unlock`);
    case 'timesheetApproval':
      return send(harness, workspace, state.by, 'POST', `/api/requests/timesheets/${state.year}/${state.week}/approvals`);
  }
}
