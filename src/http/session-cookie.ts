import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import { servesHttps, type Config } from '../config.js';
import { SESSION_COOKIE } from './bearer.js';

/*
 * The session cookie is written with the cookie library's serializer as a Set-Cookie header of the
 * answer, and read by bearerOf with its parser: the Fastify plugin around them would add a hook on
 * the way in and one on the way out of every request, for the few answers that set a cookie.
 */

const attributes = (config: Config) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: servesHttps(config),
  path: '/',
});

/**
 * Every sign-in's answer (docs/rules.md §7 Browser sessions): the session token in the cookie
 * `timetrack_access_token`, HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https, for the whole
 * host (Path=/, no Domain: one workspace's cookie never reaches another's host), expiring with the
 * session. The answer is never cached.
 */
export function setSessionCookie(reply: FastifyReply, config: Config, session: { token: string; expiresAt: string }): void {
  reply.header('set-cookie', fastifyCookie.serialize(SESSION_COOKIE, session.token, { ...attributes(config), expires: new Date(session.expiresAt) }));
  reply.header('cache-control', 'no-store');
}

/** Signing out: the browser forgets the cookie (expired, empty). */
export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.header('set-cookie', fastifyCookie.serialize(SESSION_COOKIE, '', { ...attributes(config), expires: new Date(0), maxAge: 0 }));
}
