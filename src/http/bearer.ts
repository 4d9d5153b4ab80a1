import { fastifyCookie } from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashToken } from '../lib/tokens.js';
import { SESSION_COOKIE } from '../route-kit/session-cookie.js';

/** The bearer token of a request, and its digest: the only form in which it is looked up or counted. */
export interface Bearer {
  token: string;
  digest: string;
  /** Sent as the session cookie, not in `Authorization`: writes with it must pass the CSRF check (src/http/csrf.ts). */
  fromCookie: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Read once by bearerOf: undefined until then, null when the request has no bearer token. */
    bearerMemo: Bearer | null | undefined;
  }
}

const BEARER = /^Bearer +([^\s]+) *$/i;

/**
 * The `Authorization: Bearer <token>` of a request or, when it sends no `Authorization` header, its
 * session cookie; parsed and hashed once for the rate limit and the authentication that both need it.
 */
export function bearerOf(request: FastifyRequest): Bearer | null {
  if (request.bearerMemo === undefined) request.bearerMemo = readBearer(request);
  return request.bearerMemo;
}

function readBearer(request: FastifyRequest): Bearer | null {
  const { authorization, cookie } = request.headers;
  if (authorization !== undefined) {
    const match = BEARER.exec(authorization);
    return match ? { token: match[1], digest: hashToken(match[1]), fromCookie: false } : null;
  }
  if (cookie === undefined || !cookie.includes(SESSION_COOKIE)) return null;
  const token = fastifyCookie.parse(cookie)[SESSION_COOKIE];
  return token ? { token, digest: hashToken(token), fromCookie: true } : null;
}

/** Gives every request the memo's slot up front (one object shape for all requests). */
export function decorateBearer(app: FastifyInstance): void {
  app.decorateRequest('bearerMemo', undefined);
}
