import { hash, randomBytes } from 'node:crypto';

/** API keys: `ttk_` + 43 base64url characters (32 random bytes). */
export const API_KEY_PREFIX = 'ttk_';
/** Session access tokens and one-time links use their own prefixes, so a token's kind shows at a glance. */
export const SESSION_TOKEN_PREFIX = 'tts_';
export const ONE_TIME_TOKEN_PREFIX = 'tto_';

const TOKEN_BODY = /^[A-Za-z0-9_-]{43}$/;

export function newToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Only this digest is stored; tokens are looked up by it, so no secret is ever compared in the clear. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** True when the text has the shape of a token of that kind (checked before any lookup). */
export function isTokenOf(prefix: string, token: string): boolean {
  return token.startsWith(prefix) && TOKEN_BODY.test(token.slice(prefix.length));
}

/** The part of a key that may be shown again: its prefix and first characters. */
export const displayPrefix = (token: string): string => token.slice(0, 12);
