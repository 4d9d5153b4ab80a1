import type { FastifyRequest } from 'fastify';
import type { Workspace } from '../domain/actor.js';
import type { MaybePromise } from '../lib/maybe-promise.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The workspace the request's Host header selects (404 workspace-not-found for a host that selects
     * none), from the caches of the tenancy pipeline: for routes and pages served outside /api, where
     * the tenancy hook does not run.
     */
    workspaceOf(request: FastifyRequest): MaybePromise<Workspace>;
  }
}
