import type { FastifyRequest } from 'fastify';
import { workspaceOrigin, type Config } from '../config.js';
import { forbidden } from '../domain/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery (docs/rules.md §7 Browser sessions): a request that authenticates with
 * the session cookie and may change something (any method but GET, HEAD and OPTIONS) must come from
 * the workspace's own origin, built from PUBLIC_URL like every link the service writes (the request's
 * headers are only compared with it). A missing or other `Origin`, or a `Sec-Fetch-Site` other than
 * `same-origin`, is 403 before the token is looked up. Requests with `Authorization` are not
 * concerned: a browser never adds that header by itself.
 */
export function assertSameOrigin(request: FastifyRequest, config: Config, domain: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  const { origin } = request.headers;
  const site = request.headers['sec-fetch-site'];
  if (origin === undefined || origin !== workspaceOrigin(config, domain)) {
    throw forbidden('A write with the session cookie must come from this workspace\'s own pages (Origin): it looks like cross-site request forgery.');
  }
  if (site !== undefined && site !== 'same-origin') {
    throw forbidden('A write with the session cookie must come from this workspace\'s own pages (Sec-Fetch-Site): it looks like cross-site request forgery.');
  }
}
