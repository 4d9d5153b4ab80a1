import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { ApiError, invalid } from '../domain/errors.js';
import { MAX_JSON_DEPTH, TOO_DEEP, UNSTORABLE_TEXT } from '../route-kit/body-limits.js';
import { appendRouteHook, hookOf } from './hook.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Bodies are JSON only (anything else is 415). An empty body reads as no body, so routes without
 * one accept `Content-Type: application/json` with nothing after it; prototype-polluting keys are dropped.
 * Text no store keeps as sent (lone surrogates, NUL) is refused in bodies, path values and query values.
 */
export const jsonBodies = fp(async (app: FastifyInstance) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      const text = body as string;
      if (text.trim() === '') return done(null, undefined);
      let parsed: unknown;
      try {
        parsed = secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
      } catch {
        return done(new ApiError('bad-request', 'The body is not valid JSON.'), undefined);
      }
      const tooDeep = mayNestTooDeep(text) ? tooDeepValue(parsed, '/body') : null;
      if (tooDeep !== null) return done(invalid(tooDeep, TOO_DEEP), undefined);
      const pointer = mayHoldUnstorableText(text) ? unstorableText(parsed, '/body') : null;
      if (pointer !== null) return done(invalid(pointer, UNSTORABLE_TEXT), undefined);
      done(null, parsed);
    },
  );

  // Path and query values are text too: an id no store can hold names no record (404); a query value
  // of a route that reads its query string is 422. Checked after authentication, before the schema, by
  // a hook of each route that has such values (found as the route is registered, not on every request).
  app.addHook('onRoute', (route) => {
    const readsQuery = route.schema?.querystring !== undefined;
    if (!readsQuery && !/[:*]/.test(route.url)) return;
    const check = hookOf((request) => refuseUnstorablePathAndQuery(request, readsQuery));
    appendRouteHook(route, 'preValidation', check);
  });
});



/** A text with at most MAX_JSON_DEPTH brackets cannot nest deeper: most bodies are cleared by this count alone. */
function mayNestTooDeep(json: string): boolean {
  let openers = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if ((c === 0x7b || c === 0x5b) && ++openers > MAX_JSON_DEPTH) return true;
  }
  return false;
}

/** The JSON Pointer of the first object or array nested deeper than MAX_JSON_DEPTH, or null; walks without recursion. */
export function tooDeepValue(value: unknown, pointer: string): string | null {
  const pending: Array<{ value: unknown; pointer: string; depth: number }> = [{ value, pointer, depth: 1 }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth > MAX_JSON_DEPTH) return item.pointer;
    const entries = Object.entries(item.value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      pending.push({ value: child, pointer: `${item.pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth: item.depth + 1 });
    }
  }
  return null;
}

function refuseUnstorablePathAndQuery(request: FastifyRequest, readsQuery: boolean): void {
  // Only a %-escape can put a NUL or a lone surrogate in a path or query value: Node's parser refuses a
  // raw NUL in the request line and reads its other bytes as Latin-1, which has no surrogates.
  if (!request.url.includes('%')) return;
  for (const value of Object.values((request.params ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'string' && hasUnstorableText(value)) throw new ApiError('not-found', 'No such record.');
  }
  if (!readsQuery) return;
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && hasUnstorableText(v))) throw invalid(`/query/${name}`, UNSTORABLE_TEXT);
  }
}

/** A lone surrogate or U+0000 (in a `u` regular expression a surrogate pair is one code point, so \p{Cs} only matches lone halves). */
const hasUnstorableText = (text: string): boolean => text.includes('\u0000') || /\p{Cs}/u.test(text);

/**
 * Whether a JSON text can hold unstorable text at all: a parsed string has a NUL or a lone surrogate
 * only where the text has one itself or a `\u` escape (no other escape makes either), so most bodies
 * are cleared without walking what they parsed to.
 */
const mayHoldUnstorableText = (json: string): boolean => json.includes('\\u') || hasUnstorableText(json);

/**
 * The JSON Pointer of the first string (a value or a key) that no store keeps as sent: a lone
 * surrogate (`"\ud800"`, which is valid JSON but not Unicode text: SQLite and PostgreSQL would store
 * replacement characters) or U+0000 (which PostgreSQL text and jsonb refuse). Such a body is 422.
 */
export function unstorableText(value: unknown, pointer: string): string | null {
  if (typeof value === 'string') return hasUnstorableText(value) ? pointer : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (hasUnstorableText(key)) return at;
    const found = unstorableText(item, at);
    if (found !== null) return found;
  }
  return null;
}
