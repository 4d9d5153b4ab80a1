import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import { servesHttps, type Config } from '../config.js';

/** The browser session cookie (the reference's cookie "whose name ends in _access_token"). */
export const SESSION_COOKIE = 'timetrack_access_token';

/*
 * The session cookie is written with the cookie library's serializer as a Set-Cookie header of the
 * answer, and read by bearerOf with its parser: the Fastify plugin around them would add a hook on
 * the way in and one on the way out of every request, for the few answers that set a cookie.
 */

/** The Set-Cookie header of the session cookie: `token` until `expires`, with the attributes every one carries. */
const sessionCookie = (config: Config, token: string, expires: Date, maxAge?: number): string =>
  fastifyCookie.serialize(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: servesHttps(config), path: '/', expires, maxAge });

/**
 * Every sign-in's answer (docs/rules.md §7 Browser sessions): the session token in the cookie
 * `timetrack_access_token`, HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https, for the whole
 * host (Path=/, no Domain: one workspace's cookie never reaches another's host), expiring with the
 * session. The answer is never cached.
 */
export function setSessionCookie(reply: FastifyReply, config: Config, session: { token: string; expiresAt: string }): void {
  reply.header('set-cookie', sessionCookie(config, session.token, new Date(session.expiresAt)));
  reply.header('cache-control', 'no-store');
}

/** Signing out: the browser forgets the cookie (expired, empty). */
export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.header('set-cookie', sessionCookie(config, '', new Date(0), 0));
}
