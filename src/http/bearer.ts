import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashToken } from '../lib/tokens.js';

/** The bearer token of a request, and its digest: the only form in which it is looked up or counted. */
export interface Bearer {
  token: string;
  digest: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Read once by bearerOf: undefined until then, null when the request has no bearer token. */
    bearerMemo: Bearer | null | undefined;
  }
}

/**
 * The `Authorization: Bearer <token>` of a request, parsed and hashed once for the rate limit and the
 * authentication that both need it.
 */
export function bearerOf(request: FastifyRequest): Bearer | null {
  if (request.bearerMemo === undefined) {
    const match = /^Bearer +([^\s]+) *$/i.exec(request.headers.authorization ?? '');
    request.bearerMemo = match ? { token: match[1], digest: hashToken(match[1]) } : null;
  }
  return request.bearerMemo;
}

/** Gives every request the memo's slot up front (one object shape for all requests). */
export function decorateBearer(app: FastifyInstance): void {
  app.decorateRequest('bearerMemo', undefined);
}
