import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { servesHttps, type Config } from '../config.js';
import { SESSION_COOKIE } from './bearer.js';

/**
 * Lets replies set cookies. The plugin's request hook is what writes them when the reply is sent
 * (without it the pinned release sends none); the session cookie is read by bearerOf, and only when
 * no `Authorization` header is sent.
 */
export const cookies = fp(async (app: FastifyInstance) => {
  await app.register(fastifyCookie, { hook: 'onRequest' });
});

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
  reply.setCookie(SESSION_COOKIE, session.token, { ...attributes(config), expires: new Date(session.expiresAt) });
  reply.header('cache-control', 'no-store');
}

/** Signing out: the browser forgets the cookie (expired, empty). */
export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, attributes(config));
}
