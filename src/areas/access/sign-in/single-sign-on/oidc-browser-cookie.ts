import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { servesHttps, type Config } from '../../../../config.js';
import { OIDC_ATTEMPT_MINUTES, OIDC_CALLBACK_PATH } from './oidc-service.js';

/**
 * The cookie that binds a single sign-on attempt to the browser that began it (docs/rules.md §8
 * Single sign-on): set by the start at the workspace's host, sent back only to the callback there.
 */
export const OIDC_BROWSER_COOKIE = 'timetrack_oidc_browser';

const browserCookie = (config: Config, value: string, maxAge: number): string =>
  fastifyCookie.serialize(OIDC_BROWSER_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: servesHttps(config),
    path: OIDC_CALLBACK_PATH,
    maxAge,
  });

/** On the start's redirect: the browser keeps the value for as long as the attempt lives. */
export function setOidcBrowserCookie(reply: FastifyReply, config: Config, value: string): void {
  reply.header('set-cookie', browserCookie(config, value, OIDC_ATTEMPT_MINUTES * 60));
}

/** Once the callback has used the attempt: the browser forgets the value. */
export function clearOidcBrowserCookie(reply: FastifyReply, config: Config): void {
  reply.header('set-cookie', browserCookie(config, '', 0));
}

/** The value the browser brought back, if any. */
export function oidcBrowserCookieOf(request: FastifyRequest): string | undefined {
  const { cookie } = request.headers;
  if (cookie === undefined || !cookie.includes(OIDC_BROWSER_COOKIE)) return undefined;
  return fastifyCookie.parse(cookie)[OIDC_BROWSER_COOKIE] || undefined;
}
