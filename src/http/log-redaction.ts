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
/** The same shape, to ask whether a text holds one. */
const HOLDS_TOKEN = /tt[kso]_[A-Za-z0-9_-]{8}/;
/** Names of query parameters whose value is a secret, whatever its shape. */
const SECRET_NAME = /token|key|secret|password|auth/i;

/** Whether a text holds something shaped like one of our tokens (such a text is never logged or echoed). */
export const holdsToken = (text: string): boolean => HOLDS_TOKEN.test(text);

/** Counts the characters a redaction looked at (tests prove with it that the work is linear). */
export interface RedactionWork {
  steps: number;
}

/**
 * Every query-style parameter whose name holds a secret word (`?token=…`, `;api_key=…`, `&Auth=…`)
 * with its value replaced by `[redacted]`. A parameter starts after `?`, `&` or `;` anywhere in the
 * text; its name runs to the next `=`, `&`, `;` or `#`, its value to the next `&`, `;` or `#`.
 *
 * One pass, each character looked at a bounded number of times (docs/rules.md §2, "Links and secrets
 * in logs"): the regular expression this replaces rescanned the rest of a name from every `?` in it,
 * so a 15,000-character query without a token cost ~30 ms. A name that turns out not to be a
 * parameter is skipped whole: a shorter name starting inside it ends at the same place, so it holds a
 * secret word or is followed by `=` only if the whole name does.
 */
export function redactSecretParameters(text: string, work?: RedactionWork): string {
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x3f /* ? */ && c !== 0x26 /* & */ && c !== 0x3b /* ; */) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && !'=&;#'.includes(text[end])) end++;
    if (work) work.steps += end - i;
    if (text[end] !== '=' || !SECRET_NAME.test(text.slice(i + 1, end))) {
      i = end;
      continue;
    }
    let valueEnd = end + 1;
    while (valueEnd < text.length && !'&;#'.includes(text[valueEnd])) valueEnd++;
    if (work) work.steps += valueEnd - end;
    out += text.slice(copied, end + 1) + '[redacted]';
    copied = i = valueEnd;
  }
  if (work) work.steps += text.length;
  return copied === 0 ? text : out + text.slice(copied);
}

/** `%XX` escapes of the characters a token or a secret name is made of, decoded (delimiters stay escaped, so the structure is kept). */
const decodeTokenCharacters = (url: string): string =>
  url.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9_-]/.test(character) ? character : escape;
  });

const redactText = (text: string, work?: RedactionWork): string =>
  redactSecretParameters(text.replace(TOKEN_SHAPE, '$1[redacted]'), work);

/**
 * The URL with every token and every secret query value replaced by `[redacted]`, also when they
 * were percent-encoded (`/api/users/tt%6B_…`, `?%74oken=…`): then the URL is logged with the
 * escapes of letters, digits, `_` and `-` decoded, so that what was cut out can be.
 */
export function redactUrl(url: string, work?: RedactionWork): string {
  const plain = redactText(url, work);
  if (!url.includes('%')) return plain;
  const decoded = decodeTokenCharacters(url);
  if (decoded === url) return plain;
  const redacted = redactText(decoded, work);
  return redacted === decoded ? plain : redacted;
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
