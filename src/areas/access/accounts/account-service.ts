import type { Actor, Role, Workspace } from '../../../domain/actor.js';

/** Who is calling (GET /auth): the workspace's domain, the caller's email, the bearer token in use, and the caller's user id and role here. */
export function authSnapshot(
  actor: Actor,
  workspace: Workspace,
): { domain: string; email: string; token: string; userId: string; role: Role } {
  return { domain: workspace.domain, email: actor.email, token: actor.token, userId: actor.userId, role: actor.role };
}
