/**
 * The authorization matrix: for every operation of the API, the status a valid
 * request gets from each kind of caller. docs/rules.md §5 is the source; test/security/authorization-matrix.test.ts
 * Walks every cell on both stores, and fails when an operation of the served OpenAPI document is
 * missing here (or this table names one the document does not serve).
 *
 * The callers, in column order (test/security/world.ts seeds them):
 *   anon    no token, at the workspace's host
 *   user    a workspace User, plain member (role User) of the project; owner of the records that have
 *           an owner (activity, report, cost rate, requests, API key, preferences, lock)
 *   outs    "outsider": a workspace User in no project, owning nothing
 *   pAdm    a workspace User who is the project's admin (member with role Administrator)
 *   admin   a workspace Administrator
 *   fHost   the Administrator of another workspace, at that workspace's host with its own token,
 *           sending this workspace's ids: 404 for them (or 422 for ids in a body); routes without ids
 *           answer for that workspace, and never with this one's records
 *   fTok    the other workspace's token at this workspace's host: 401
 *
 * The record each route acts on is the user's (or the project's the user is a plain member of),
 * so `user` shows what an owner or member may do, `pAdm` what a project admin may do with it.
 */
export const CALLERS = ['anon', 'user', 'outs', 'pAdm', 'admin', 'fHost', 'fTok'] as const;
export type Caller = (typeof CALLERS)[number];

type Row = [operation: string, ...statuses: [number, number, number, number, number, number, number]];

// prettier-ignore
const TABLE: Row[] = [
  //  operation                                                                 anon user outs pAdm admin fHost fTok
  // Workspace (§5 organization: everyone reads; admin writes). API keys: the caller's own only.
  ['GET /auth',                                                                  401, 200, 200, 200, 200, 200, 401],
  ['GET /organizations',                                                         401, 200, 200, 200, 200, 200, 401],
  ['GET /organization',                                                          401, 200, 200, 200, 200, 200, 401],
  ['PUT /organization',                                                          401, 403, 403, 403, 200, 200, 401],
  ['DELETE /organization',                                                       401, 403, 403, 403, 200, 200, 401],
  ['POST /organization/rename',                                                  401, 403, 403, 403, 200, 200, 401],
  ['GET /api-keys',                                                              401, 200, 200, 200, 200, 200, 401],
  ['POST /api-keys',                                                             401, 200, 200, 200, 200, 200, 401],
  ['DELETE /api-keys/{apiKeyId}',                                                401, 200, 404, 404, 404, 404, 401],
  ['POST /auth/one-time',                                                        200, 200, 200, 200, 200, 401, 200],
  // Sign-in (§7): signing out and the account's own sessions; another account's session is 404.
  ['POST /auth/sign-out',                                                        401, 200, 200, 200, 200, 200, 401],
  ['GET /auth/sessions',                                                         401, 200, 200, 200, 200, 200, 401],
  ['DELETE /auth/sessions/{sessionId}',                                          401, 200, 404, 404, 404, 404, 401],
  // Public: links are mailed (or not) and the answer is the same; a password signs in only at its workspace's host.
  ['POST /auth/email-link',                                                      200, 200, 200, 200, 200, 200, 200],
  ['POST /auth/password-reset',                                                  200, 200, 200, 200, 200, 200, 200],
  ['POST /auth/find-workspaces',                                                 200, 200, 200, 200, 200, 200, 200],
  ['POST /auth/sign-in',                                                         200, 200, 200, 200, 200, 401, 200],
  ['PUT /auth/password',                                                         401, 200, 200, 200, 200, 200, 401],
  // Two-factor codes: the caller's own account (§8 Two-factor codes); the outsider's account has 2FA on (world.ts), the
  // others none. The second step of a sign-in is public and bound to the challenge's workspace.
  ['GET /auth/two-factor',                                                       401, 200, 200, 200, 200, 200, 401],
  ['POST /auth/two-factor',                                                      401, 200, 409, 200, 200, 200, 401],
  ['POST /auth/two-factor/confirm',                                              401, 200, 409, 409, 409, 409, 401],
  ['POST /auth/two-factor/disable',                                              401, 200, 422, 409, 409, 409, 401],
  ['POST /auth/two-factor/recovery-codes',                                       401, 200, 422, 409, 409, 409, 401],
  ['POST /auth/two-factor/verify',                                               200, 200, 200, 200, 200, 401, 200],
  // Sign-in settings: administrators only
  ['GET /auth/settings',                                                         401, 403, 403, 403, 200, 200, 401],
  ['PUT /auth/settings',                                                         401, 403, 403, 403, 200, 200, 401],
  // Single sign-on (§8): public; these suites run without a configured provider, so start and callback are 404
  ['GET /auth/providers',                                                        200, 200, 200, 200, 200, 200, 200],
  ['GET /auth/oidc/start',                                                       404, 404, 404, 404, 404, 404, 404],
  ['GET /auth/oidc/callback',                                                    404, 404, 404, 404, 404, 404, 404],
  // Projects (§5: admin all; user the projects they are an unarchived member of; update: admin, project admin)
  ['GET /projects',                                                              401, 200, 200, 200, 200, 200, 401],
  ['POST /projects',                                                             401, 403, 403, 403, 200, 200, 401],
  ['GET /projects/{projectId}',                                                  401, 200, 404, 200, 200, 404, 401],
  ['PUT /projects/{projectId}',                                                  401, 403, 404, 200, 200, 404, 401],
  ['DELETE /projects/{projectId}',                                               401, 403, 403, 403, 200, 404, 401],
  // Project members (§5: read admin and the project's members; write admin, project admin)
  ['GET /projects/{projectId}/members',                                          401, 200, 404, 200, 200, 404, 401],
  ['POST /projects/{projectId}/members',                                         401, 403, 404, 200, 200, 404, 401],
  ['GET /projects/{projectId}/members/{memberId}',                               401, 200, 404, 200, 200, 404, 401],
  ['PUT /projects/{projectId}/members/{memberId}',                               401, 403, 404, 200, 200, 404, 401],
  ['DELETE /projects/{projectId}/members/{memberId}',                            401, 403, 404, 200, 200, 404, 401],
  // Revenue rates (§5: admin, project admin; another member of the project 403)
  ['GET /projects/{projectId}/members/{memberId}/rates/revenue',                 401, 403, 404, 200, 200, 404, 401],
  ['POST /projects/{projectId}/members/{memberId}/rates/revenue',                401, 403, 404, 200, 200, 404, 401],
  ['GET /projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}',     401, 403, 404, 200, 200, 404, 401],
  ['PUT /projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}',     401, 403, 404, 200, 200, 404, 401],
  ['DELETE /projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}',  401, 403, 404, 200, 200, 404, 401],
  // Activities (§5: read admin all, user own + projects they administer; write owner, admin).
  // The outsider may not book on a project they are not a member of: 422 (§6 activity references).
  ['GET /activities',                                                            401, 200, 200, 200, 200, 200, 401],
  ['POST /activities',                                                           401, 200, 422, 200, 200, 422, 401],
  ['GET /activities/{activityId}',                                               401, 200, 404, 200, 200, 404, 401],
  ['PUT /activities/{activityId}',                                               401, 200, 404, 403, 200, 404, 401],
  ['DELETE /activities/{activityId}',                                            401, 200, 404, 403, 200, 404, 401],
  // Users (§5: everyone reads the directory; invite, delete, role, archived: admin; own profile: the user)
  ['GET /users',                                                                 401, 200, 200, 200, 200, 200, 401],
  ['POST /users',                                                                401, 403, 403, 403, 200, 200, 401],
  ['GET /users/{userId}',                                                        401, 200, 200, 200, 200, 404, 401],
  ['PUT /users/{userId}',                                                        401, 200, 403, 403, 200, 404, 401],
  ['DELETE /users/{userId}',                                                     401, 403, 403, 403, 200, 404, 401],
  // Preferences (§5: only the user themself, admins get 403 too)
  ['GET /users/{userId}/preferences',                                            401, 200, 403, 403, 403, 404, 401],
  ['PUT /users/{userId}/preferences',                                            401, 200, 403, 403, 403, 404, 401],
  // Cost rates (§5: read admin and the user their own, others 404; write admin)
  ['GET /users/{userId}/rates/cost',                                             401, 200, 404, 404, 200, 404, 401],
  ['POST /users/{userId}/rates/cost',                                            401, 403, 403, 403, 200, 404, 401],
  ['GET /users/{userId}/rates/cost/{costId}',                                    401, 200, 404, 404, 200, 404, 401],
  ['PUT /users/{userId}/rates/cost/{costId}',                                    401, 403, 403, 403, 200, 404, 401],
  ['DELETE /users/{userId}/rates/cost/{costId}',                                 401, 403, 403, 403, 200, 404, 401],
  // Reports (§5: owner only, others 404, administrators included)
  ['GET /reports',                                                               401, 200, 200, 200, 200, 200, 401],
  ['POST /reports',                                                              401, 200, 200, 200, 200, 200, 401],
  ['GET /reports/{reportId}',                                                    401, 200, 404, 404, 404, 404, 401],
  ['PUT /reports/{reportId}',                                                    401, 200, 404, 404, 404, 404, 401],
  ['DELETE /reports/{reportId}',                                                 401, 200, 404, 404, 404, 404, 401],
  // Running reports: an ad-hoc definition, any user (answering what that caller may see); a saved one, its owner only
  ['POST /reports/run',                                                          401, 200, 200, 200, 200, 200, 401],
  ['GET /reports/{reportId}/run',                                                401, 200, 404, 404, 404, 404, 401],
  // Detailed reports: likewise
  ['POST /reports/entries',                                                      401, 200, 200, 200, 200, 200, 401],
  ['GET /reports/{reportId}/entries',                                            401, 200, 404, 404, 404, 404, 401],
  // Requests (§5: read admin all, user own; create any user (on a project they can see); resolve admin)
  ['GET /requests',                                                              401, 200, 200, 200, 200, 200, 401],
  ['GET /requests/{requestId}',                                                  401, 200, 404, 404, 200, 404, 401],
  ['POST /requests/projects/{projectId}/members/{memberId}/role',                401, 200, 404, 200, 200, 404, 401],
  ['PUT /requests/{requestId}/projects/members/role',                            401, 403, 403, 403, 200, 404, 401],
  ['POST /requests/projects/{projectId}/members',                                401, 200, 404, 200, 200, 404, 401],
  ['PUT /requests/{requestId}/projects/members',                                 401, 403, 403, 403, 200, 404, 401],
  ['POST /requests/projects/request-assignment',                                 401, 200, 200, 200, 200, 200, 401],
  ['PUT /requests/{requestId}/projects/assign',                                  401, 403, 403, 403, 200, 404, 401],
  ['PUT /requests/{requestId}',                                                  401, 403, 403, 403, 200, 404, 401],
  ['POST /requests/timesheets/{year}/{week}/unlock',                             401, 200, 200, 200, 200, 200, 401],
  ['PUT /requests/{requestId}/timesheets/unlock',                                401, 403, 403, 403, 200, 404, 401],
  ['POST /requests/timesheets/{year}/{week}/approvals',                          401, 200, 200, 200, 200, 200, 401],
  ['PUT /requests/{requestId}/timesheets/approvals',                             401, 403, 403, 403, 200, 404, 401],
  // Timesheets (§5: admin). A lock for a user of this workspace is 422 at another one's host.
  ['PUT /timesheets/auto-lock',                                                  401, 403, 403, 403, 200, 200, 401],
  ['POST /timesheets/lock',                                                      401, 403, 403, 403, 200, 422, 401],
  ['DELETE /timesheets/lock/{lockId}',                                           401, 403, 403, 403, 200, 404, 401],
  ['GET /timesheets/locks',                                                      401, 403, 403, 403, 200, 200, 401],
  ['POST /timesheets/reminder',                                                  401, 403, 403, 403, 200, 200, 401],
  // Billing (§5: admin)
  ['GET /subscriptions',                                                         401, 403, 403, 403, 200, 200, 401],
  ['PUT /subscriptions/{subscriptionId}',                                        401, 403, 403, 403, 200, 404, 401],
  ['POST /checkout',                                                             401, 403, 403, 403, 200, 200, 401],
  ['GET /billing-history',                                                       401, 403, 403, 403, 200, 200, 401],
  ['POST /receipt',                                                              401, 403, 403, 403, 200, 200, 401],
  // Geofences (§5: everyone reads; admin writes). Another workspace's project in the body: 422.
  ['GET /geofences',                                                             401, 200, 200, 200, 200, 200, 401],
  ['POST /geofences',                                                            401, 403, 403, 403, 200, 422, 401],
  ['GET /geofences/{geofenceId}',                                                401, 200, 200, 200, 200, 404, 401],
  ['PUT /geofences/{geofenceId}',                                                401, 403, 403, 403, 200, 404, 401],
  ['DELETE /geofences/{geofenceId}',                                             401, 403, 403, 403, 200, 404, 401],
  // Tags (§6 Tags: everyone reads and creates; admin renames, archives, deletes)
  ['GET /tags',                                                                  401, 200, 200, 200, 200, 200, 401],
  ['POST /tags',                                                                 401, 200, 200, 200, 200, 200, 401],
  ['PUT /tags/{tagId}',                                                          401, 403, 403, 403, 200, 404, 401],
  ['DELETE /tags/{tagId}',                                                       401, 403, 403, 403, 200, 404, 401],
  // Change feed (§6 Change feed: everyone reads; a User only the events of records they may read)
  ['GET /changes',                                                               401, 200, 200, 200, 200, 200, 401],
  // Webhooks (§5: administrators only; every event of the workspace leaves through them)
  ['GET /webhooks',                                                              401, 403, 403, 403, 200, 200, 401],
  ['POST /webhooks',                                                             401, 403, 403, 403, 200, 200, 401],
  ['GET /webhooks/{webhookId}',                                                  401, 403, 403, 403, 200, 404, 401],
  ['PUT /webhooks/{webhookId}',                                                  401, 403, 403, 403, 200, 404, 401],
  ['DELETE /webhooks/{webhookId}',                                               401, 403, 403, 403, 200, 404, 401],
  ['POST /webhooks/{webhookId}/rotate-secret',                                   401, 403, 403, 403, 200, 404, 401],
  ['POST /webhooks/{webhookId}/ping',                                            401, 403, 403, 403, 200, 404, 401],
  ['GET /webhooks/{webhookId}/deliveries',                                       401, 403, 403, 403, 200, 404, 401],
  ['POST /webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',               401, 403, 403, 403, 200, 404, 401],
  // Clients (§6 Clients: admin writes; a User reads the clients of their projects, the world's project has the client)
  ['GET /clients',                                                               401, 200, 200, 200, 200, 200, 401],
  ['POST /clients',                                                              401, 403, 403, 403, 200, 200, 401],
  ['GET /clients/{clientId}',                                                    401, 200, 404, 200, 200, 404, 401],
  ['PUT /clients/{clientId}',                                                    401, 403, 403, 403, 200, 404, 401],
  ['DELETE /clients/{clientId}',                                                 401, 403, 403, 403, 200, 404, 401],
  // Tasks (§6 Tasks: read as the project is; written by administrators and the project's admins)
  ['GET /projects/{projectId}/tasks',                                            401, 200, 404, 200, 200, 404, 401],
  ['POST /projects/{projectId}/tasks',                                           401, 403, 404, 200, 200, 404, 401],
  ['GET /projects/{projectId}/tasks/{taskId}',                                   401, 200, 404, 200, 200, 404, 401],
  ['PUT /projects/{projectId}/tasks/{taskId}',                                   401, 403, 404, 200, 200, 404, 401],
  ['DELETE /projects/{projectId}/tasks/{taskId}',                                401, 403, 404, 200, 200, 404, 401],
  // Imports (§6 Imports: administrators only). A started import answers 202 (it runs in the background), in the
  // caller's own workspace; another workspace's import is 404.
  ['POST /imports',                                                              401, 403, 403, 403, 202, 202, 401],
  ['GET /imports',                                                               401, 403, 403, 403, 200, 200, 401],
  ['GET /imports/{importId}',                                                    401, 403, 403, 403, 200, 404, 401],
  // Export (§6 Export: administrators only): a ZIP of every record of the caller's own workspace.
  ['GET /export',                                                                401, 403, 403, 403, 200, 200, 401],
];

export interface MatrixRow {
  /** `METHOD /path`, as the OpenAPI document names the operation. */
  operation: string;
  method: string;
  path: string;
  expected: Record<Caller, number>;
}

export const AUTHORIZATION_MATRIX: MatrixRow[] = TABLE.map(([operation, ...statuses]) => {
  const [method, path] = operation.split(' ');
  return { operation, method, path, expected: Object.fromEntries(CALLERS.map((caller, i) => [caller, statuses[i]])) as Record<Caller, number> };
});

/** Operations that end or move the workspace itself: each of their cells runs in a pair of fresh workspaces. */
export const WORKSPACE_ENDING = new Set(['DELETE /organization', 'POST /organization/rename']);
