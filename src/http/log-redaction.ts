import type { FastifyRequest } from 'fastify';

/**
 * What the logs may never hold: a bearer token or a one-time sign-in token. Headers are not logged
 * at all (and `authorization` / `cookie` are censored wherever a headers object is logged); the URL
 * is logged, so a token that arrives in it (someone opening the mailed sign-in link, `?token=tto_…`,
 * or pasting an API key into a query) is cut out of it first.
 */

/** The redaction paths of the pino logger: a request's headers, or a bare headers object, logged by mistake. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
];

/** Our tokens (API key `ttk_`, session `tts_`, one-time link `tto_`), wherever they appear in a text. */
const TOKEN_SHAPE = /(tt[kso]_)[A-Za-z0-9_-]{8,}/g;
/** Query parameters whose value is a secret, whatever its shape. */
const SECRET_PARAMETER = /([?&;](?:[^=&;#]*(?:token|key|secret|password|auth)[^=&;#]*)=)[^&;#]*/gi;

/** The URL with every token and every secret query value replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(TOKEN_SHAPE, '$1[redacted]').replace(SECRET_PARAMETER, '$1[redacted]');
}

/** Fastify's request log fields (method, url, host, address), with the URL redacted. */
export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : request.url,
    version: [request.headers?.['accept-version']].flat()[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined,
  };
}
