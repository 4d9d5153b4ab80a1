import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { findWorkspaceByDomain, type Workspace } from '../areas/workspace/repository.js';
import { isWellFormedDomain } from '../areas/workspace/rules.js';
import { ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The workspace selected by the Host header; set for every /api route. */
    workspace: Workspace;
  }
}

/**
 * The workspace label of a Host header under BASE_DOMAIN (`acme.localhost:3000` → `acme`), or null.
 * Only the Host header counts: X-Forwarded-Host never selects a workspace, and a request carrying
 * more than one Host header selects none.
 */
export function workspaceDomainOf(request: FastifyRequest, baseDomain: string): string | null {
  const raw = request.raw.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  const host = request.headers.host;
  if (hosts !== 1 || !host) return null;
  const match = /^([^:[\]]+?)\.?(?::\d{1,5})?$/.exec(host.toLowerCase());
  if (!match) return null;
  const hostname = match[1];
  const suffix = `.${baseDomain}`;
  if (!hostname.endsWith(suffix)) return null;
  const label = hostname.slice(0, -suffix.length);
  return isWellFormedDomain(label) ? label : null;
}

/** The workspace the request's host selects; 404 workspace-not-found when there is none. */
export async function resolveWorkspace(app: FastifyInstance, request: FastifyRequest): Promise<Workspace> {
  const domain = workspaceDomainOf(request, app.config.baseDomain);
  const workspace = domain === null ? undefined : await findWorkspaceByDomain(app.db, domain);
  if (!workspace) throw new ApiError('workspace-not-found', 'No workspace is served at this host.');
  return workspace;
}

/** Resolves the workspace before anything else, so an unknown host is 404 before any token check. */
export const tenancy = fp(async (app: FastifyInstance) => {
  app.decorateRequest('workspace', null as unknown as Workspace);
  app.addHook('onRequest', async (request) => {
    request.workspace = await resolveWorkspace(app, request);
  });
});
