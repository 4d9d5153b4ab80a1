import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';

/**
 * The Host header alone selects a workspace (docs/rules.md §2). A request line may also name a host, in
 * absolute form (`GET http://b.example.com/api/auth HTTP/1.1`), which HTTP says should win over
 * Host; a proxy or cache in front may pick either one. So when the two disagree, neither is trusted:
 * the request selects no workspace (404 workspace-not-found), before any token is looked at.
 * Origin-form request lines (`GET /api/auth`), the usual kind, are not affected.
 */
export function rejectConflictingRequestTarget(request: FastifyRequest): void {
  const target = request.raw.url ?? '';
  if (target.startsWith('/')) return;
  const hostHeader = hostnameOf(request.headers.host);
  let targetHost: string | null;
  try {
    targetHost = hostnameOf(new URL(target).host);
  } catch {
    targetHost = null;
  }
  if (targetHost === null || hostHeader === null || targetHost !== hostHeader) {
    throw new ApiError('workspace-not-found', 'The request line and the Host header name different hosts.');
  }
}

/** `Acme.Example.com.:3000` → `acme.example.com`; null without a host. */
function hostnameOf(authority: string | undefined): string | null {
  if (!authority) return null;
  const match = /^([^:[\]]+?)\.?(?::\d{0,5})?$/.exec(authority.toLowerCase());
  return match ? match[1] : null;
}
