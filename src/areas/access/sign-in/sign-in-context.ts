import type { FastifyRequest } from 'fastify';
import type { SignInContext } from './sign-in-flow.js';

/** What a sign-in keeps of its request: the user agent (shown in the list of sessions) and the client address. */
export const contextOf = (request: FastifyRequest): SignInContext => ({
  userAgent: request.headers['user-agent'],
  address: request.ip,
});
