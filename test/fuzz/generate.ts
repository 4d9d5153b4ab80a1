import fc from 'fast-check';
import { deref, type JsonSchema, type OpenApiDocument } from './openapi.js';

/**
 * fast-check arbitraries built from the JSON Schemas of the served document: values that satisfy a
 * schema, and mutations of them that break it (one defect each, labelled). Strings, numbers and
 * arrays lean towards small values but reach their bounds; a few property names get realistic
 * values (ids of seeded records, currencies, time zones…) so valid requests also pass the rules
 * beyond the schema often enough to exercise the success paths.
 */

/** Ids of records in the seeded workspace, for id-valued fields of bodies and queries. */
export interface Pools {
  userIds: string[];
  projectIds: string[];
  memberIds: string[];
}

export interface GenContext {
  doc: OpenApiDocument;
  pools: Pools;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Characters that break naive code: controls, quotes, combining marks, template and markup syntax. */
const NASTY_UNITS = [
  '\u0001', '\u001f', '\u007f', ' ', '\t', '\n', '\r', '\u00a0', '\u200b', '\u2028', '\ufeff',
  '😀', '%', '%00', "'", '"', '\\', '/', '<', '>', '&', '{{', '${', '../', 'ß', 'İ', '\u0301',
];

/** Text no store keeps as sent (the service answers 422): rarer, so valid requests still get through. */
const UNSTORABLE_UNITS = ['\u0000', '\ud800', '\udfff'];

const unit: fc.Arbitrary<string> = fc.oneof(
  { weight: 60, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 15, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 10, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 10, arbitrary: fc.constantFrom(...NASTY_UNITS) },
  { weight: 1, arbitrary: fc.constantFrom(...UNSTORABLE_UNITS) },
);

/** Ajv counts string length in code points; so do these helpers. */
const codePoints = (s: string): number => Array.from(s).length;

/** A string of exactly n code points (repeating a short random pattern: cheap for big n). */
function stringOfLength(n: number): fc.Arbitrary<string> {
  if (n === 0) return fc.constant('');
  return fc.string({ unit, minLength: 1, maxLength: 6 }).map((pattern) => {
    const units = Array.from(pattern);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(units[i % units.length]);
    return out.join('');
  });
}

function lengthIn(min: number, max: number): fc.Arbitrary<number> {
  const small = Math.min(max, Math.max(min, 24));
  return fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min, max: small }) },
    { weight: 2, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
  );
}

function integerIn(min: number, max: number): fc.Arbitrary<number> {
  const lo = Math.max(min, -MAX_SAFE);
  const hi = Math.min(max, MAX_SAFE);
  return fc.bigInt({ min: BigInt(Math.ceil(lo)), max: BigInt(Math.floor(hi)) }).map(Number);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** An RFC 3339 date-time with an offset, as Ajv's `date-time` format accepts it. */
export const dateTimeArb: fc.Arbitrary<string> = fc
  .record({
    instant: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }) },
      { weight: 1, arbitrary: fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31) }) },
    ),
    offsetMinutes: fc.oneof(
      { weight: 4, arbitrary: fc.constant(0) },
      { weight: 2, arbitrary: fc.constantFrom(60, 120, -300, 330, 345, 840, -720) },
      { weight: 1, arbitrary: fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }) },
    ),
    fraction: fc.oneof(fc.constant(''), fc.constant('.000'), fc.integer({ min: 0, max: 999_999 }).map((n) => `.${n}`)),
    zulu: fc.oneof({ weight: 6, arbitrary: fc.constant('upper') }, { weight: 1, arbitrary: fc.constantFrom('lower', 'numeric') }),
  })
  .map(({ instant, offsetMinutes, fraction, zulu }) => {
    let offset = offsetMinutes;
    let local = new Date(instant + offset * 60_000);
    if (local.getUTCFullYear() < 1 || local.getUTCFullYear() > 9999) {
      offset = 0;
      local = new Date(instant);
    }
    const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
    const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}`;
    let suffix = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
    if (offset === 0 && zulu === 'numeric') suffix = '+00:00';
    const text = `${date}T${time}${suffix}`;
    return zulu === 'lower' ? text.toLowerCase() : text;
  });

const subset = <T>(values: T[], minLength = 0) =>
  values.length === 0 ? fc.constant([] as T[]) : fc.subarray(values, { minLength: Math.min(minLength, values.length) });

/** Realistic values for well-known property names (each still within the property's schema). */
function hintArb(ctx: GenContext, schema: JsonSchema, name: string | undefined): fc.Arbitrary<unknown> | undefined {
  const { pools } = ctx;
  const type = schema.type;
  if (type === 'string') {
    switch (name) {
      case 'currency':
        // XYZ has the declared form (three upper-case letters) yet is no ISO 4217 code: a rule the document names.
        return fc.constantFrom('EUR', 'USD', 'GBP', 'JPY', 'CHF', 'XYZ');
      case 'timeZone':
        return fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'europe/berlin');
      case 'locale':
        return fc.constantFrom('en', 'en-US', 'de-CH', 'fr', 'zh-Hant-TW', 'EN-us');
      case 'email':
        return fc.emailAddress().filter((e) => e.length <= (schema.maxLength ?? 254));
      case 'domain':
        return fc.stringMatching(/^[a-z][a-z0-9-]{1,20}[a-z0-9]$/);
      case 'receiptBase64':
        // Canonical base64 (the declared pattern): the encoding of some bytes.
        return fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('base64'));
      case 'token':
        return fc.base64String({ minLength: 44, maxLength: 44 }).map((s) => `tto_${s.replace(/[+/=]/g, 'A').slice(0, 43)}`);
      case 'userId':
        return fc.constantFrom(...pools.userIds);
      case 'projectId':
        return fc.constantFrom(...pools.projectIds);
    }
  }
  if (type === 'array') {
    switch (name) {
      case 'userIds':
        return subset(pools.userIds, schema.minItems ?? 0);
      case 'projectIds':
      case 'selectedProjects':
        return subset(pools.projectIds, schema.minItems ?? 0);
      case 'selectedProjectMembers':
        return subset(pools.memberIds, schema.minItems ?? 0);
    }
  }
  if (type === 'integer' && name === 'year') return fc.integer({ min: Math.max(schema.minimum ?? 1990, 1990), max: 2040 });
  if (type === 'integer' && name === 'week') return fc.integer({ min: 1, max: 52 });
  if (type === 'number' && name === 'radius') return fc.double({ min: 1, max: 100_000, noNaN: true });
  return undefined;
}

/** A value that satisfies `schema` (nullable included). `name` is the property name, for hints. */
export function validArb(ctx: GenContext, schemaOrRef: JsonSchema, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(ctx.doc, schemaOrRef);
  const base = plainArb(ctx, schema, depth);
  const hint = hintArb(ctx, schema, name);
  let arb = hint ? fc.oneof({ weight: 4, arbitrary: hint }, { weight: 1, arbitrary: base }) : base;
  if (schema.nullable) arb = fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 5, arbitrary: arb });
  return arb;
}

function plainArb(ctx: GenContext, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      return stringArb(schema);
    case 'integer':
      return integerIn(schema.minimum ?? -MAX_SAFE, schema.maximum ?? MAX_SAFE);
    case 'number': {
      const min = schema.minimum ?? -Number.MAX_VALUE;
      const max = schema.maximum ?? Number.MAX_VALUE;
      return fc.oneof(
        { weight: 6, arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }) },
        { weight: 2, arbitrary: integerIn(Math.max(min, -1e6), Math.min(max, 1e6)) },
        { weight: 1, arbitrary: fc.constantFrom(...[min, max, 0].filter((n) => n >= min && n <= max)) },
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayArb(ctx, schema, depth);
    case 'object':
      return objectArb(ctx, schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 2_000;
  if (schema.format === 'date-time') return dateTimeArb.filter((s) => s.length >= min && s.length <= max);
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => codePoints(s) >= min && codePoints(s) <= max);
  }
  return lengthIn(min, max).chain(stringOfLength);
}

function arrayArb(ctx: GenContext, schema: JsonSchema, depth: number): fc.Arbitrary<unknown[]> {
  const item = validArb(ctx, schema.items ?? {}, undefined, depth + 1);
  const minLength = schema.minItems ?? 0;
  const maxLength = Math.min(schema.maxItems ?? 20, depth > 1 ? 3 : 1_000);
  return lengthIn(minLength, maxLength).chain((n) =>
    schema.uniqueItems
      ? fc.uniqueArray(item, { minLength: Math.min(n, uniqueCeiling(ctx, schema)), maxLength: n, selector: (v) => JSON.stringify(v) })
      : fc.array(item, { minLength: n, maxLength: n }),
  );
}

/** How many distinct items an array's item schema allows (an enum caps it). */
function uniqueCeiling(ctx: GenContext, schema: JsonSchema): number {
  const items = deref(ctx.doc, schema.items ?? {});
  return Array.isArray(items.enum) ? items.enum.length : Number.MAX_SAFE_INTEGER;
}

function objectArb(ctx: GenContext, schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) model[key] = validArb(ctx, sub, key, depth + 1);
  const known = fc.record(model, { requiredKeys: required });
  const maxProperties: number = schema.maxProperties ?? Number.MAX_SAFE_INTEGER;
  // Open objects: unknown fields must be ignored, so some are sent (never more than maxProperties allows).
  const extraAllowed = schema.additionalProperties !== false && depth < 2;
  const extras = extraAllowed
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.dictionary(
            fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }).map((k) => `x-${k}`),
            fc.jsonValue({ maxDepth: 1 }),
            { maxKeys: 3 },
          ),
        },
      )
    : fc.constant({});
  return fc.tuple(known, extras, fc.boolean()).map(([values, extra, ordered]) => {
    const out: Record<string, unknown> = { ...values };
    for (const [key, value] of Object.entries(extra)) {
      if (Object.keys(out).length >= maxProperties) break;
      if (!(key in properties)) out[key] = value;
    }
    return ordered ? orderPeriods(out) : out;
  });
}

/** Puts the two ends of a period in order, so periods are often (not always) well-formed. */
function orderPeriods(value: Record<string, unknown>): Record<string, unknown> {
  for (const [from, to] of [['startedAt', 'endedAt'], ['from', 'to'], ['start', 'end']]) {
    const a = value[from];
    const b = value[to];
    if (typeof a === 'string' && typeof b === 'string' && Date.parse(a) > Date.parse(b)) {
      value[from] = b;
      value[to] = a;
    }
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Invalid values: one defect each.

export interface Mutation {
  /** The kind of defect: wrong-type, missing-required, out-of-range, oversized-string, … */
  label: string;
  /** JSON Pointer of the defect in the body. */
  pointer: string;
  value: unknown;
}

const clone = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

function setAt(root: unknown, path: (string | number)[], replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const copy = clone(root) as any;
  let node = copy;
  for (const [index, key] of path.slice(0, -1).entries()) {
    // A place under a property the valid body left out (or null): make the parents.
    if (node[key] === null || typeof node[key] !== 'object') node[key] = typeof path[index + 1] === 'number' ? [] : {};
    node = node[key];
  }
  const last = path[path.length - 1];
  if (remove) delete node[last];
  else node[last] = replacement;
  return copy;
}

const pointerOf = (path: (string | number)[]) => `/body${path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`;

interface Candidate {
  label: string;
  path: (string | number)[];
  replacement: fc.Arbitrary<unknown>;
  remove?: boolean;
}

const NO_OFFSET = ['2026-07-04T09:00:00', '2026-07-04T09:00:00.000', '2026-07-04 09:00', '2026-07-04T09:00:00.123456'];
const BAD_DATE_TIMES = ['2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', 'yesterday', '1751619600000', '2026-07-04', 'T09:00:00Z', '2026-07-04T25:00:00Z'];

/** Every defect that can be put at one place of a body: the place holds `value` (or nothing). */
function candidatesAt(
  ctx: GenContext,
  schemaOrRef: JsonSchema,
  path: (string | number)[],
  value: unknown,
  depth: number,
  out: Candidate[],
): void {
  const schema = deref(ctx.doc, schemaOrRef);
  const type: string | undefined = schema.type;
  if (!type) return;
  const add = (label: string, replacement: fc.Arbitrary<unknown>) => out.push({ label, path, replacement });
  const wrongTypes: Record<string, unknown[]> = {
    string: [123, true, {}, ['x']],
    integer: ['abc', true, {}, [1]],
    number: ['abc', false, {}, [1]],
    boolean: ['yes', 1, {}, [true]],
    object: ['x', 1, [], true],
    array: ['x', 1, {}, true],
  };
  add('wrong-type', fc.constantFrom(...(wrongTypes[type] ?? [])));
  if (!schema.nullable && path.length > 0) add('null', fc.constant(null));

  if (type === 'integer' || type === 'number') {
    const min: number | undefined = schema.minimum;
    const max: number | undefined = schema.maximum;
    const inRange = typeof value === 'number' ? value : (min ?? 1);
    add('stringified-number', fc.constant(String(inRange)));
    if (min !== undefined) add('out-of-range', fc.constantFrom(min - 1, min - 0.5, -1e300).filter((n) => n < min));
    if (max !== undefined) add('out-of-range', fc.constantFrom(max + 1, max + 0.5, 1e300).filter((n) => n > max));
    if (type === 'integer') add('not-integer', fc.constant(inRange + 0.5));
  }
  if (type === 'boolean') add('stringified-boolean', fc.constantFrom('true', 'false'));
  if (type === 'string') {
    const max: number | undefined = schema.maxLength;
    const min: number = schema.minLength ?? 0;
    if (max !== undefined) {
      add('oversized-string', fc.constantFrom(max + 1, Math.min(max * 4 + 1_000, 900_000)).chain(stringOfLength));
    }
    if (min > 0) add('undersized-string', stringOfLength(min - 1));
    if (Array.isArray(schema.enum)) {
      const known = schema.enum.map(String);
      const unknown = [...known.map((v: string) => v.toLowerCase()), ...known.map((v: string) => `${v} `), 'UNKNOWN', ''];
      add('unknown-enum', fc.constantFrom(...unknown.filter((v) => !known.includes(v))));
    }
    if (schema.format === 'date-time') {
      add('no-offset', fc.constantFrom(...NO_OFFSET));
      add('bad-date-time', fc.constantFrom(...BAD_DATE_TIMES));
    }
    if (typeof schema.pattern === 'string') {
      const pattern = new RegExp(schema.pattern);
      add('pattern', fc.constantFrom('24:00', '9:00', '09:60', '0900', '09:00 ', 'noon').filter((v) => !pattern.test(v)));
    }
  }
  if (type === 'array') {
    const items = schema.items ?? {};
    const list = Array.isArray(value) ? value : [];
    const item = validArb(ctx, items, undefined, depth + 1);
    if (schema.maxItems !== undefined) {
      add('oversized-array', fc.array(item, { minLength: 1, maxLength: 3 }).map((seed) => {
        const out: unknown[] = [];
        for (let i = 0; i <= schema.maxItems; i++) out.push(seed[i % seed.length]);
        return out;
      }));
    }
    if ((schema.minItems ?? 0) > 0) add('undersized-array', fc.constant(list.slice(0, schema.minItems - 1)));
    if (schema.uniqueItems && list.length > 0) {
      const duplicated = list.length < (schema.maxItems ?? Infinity) ? [...list, list[0]] : [...list.slice(0, -1), list[0]];
      if (duplicated.length > 1) add('duplicate-items', fc.constant(duplicated));
    }
    if (list.length > 0 && depth < 3) candidatesAt(ctx, items, [...path, 0], list[0], depth + 1, out);
  }
  if (type === 'object') {
    const properties: Record<string, JsonSchema> = schema.properties ?? {};
    const present = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    for (const key of schema.required ?? []) {
      if (key in present) out.push({ label: 'missing-required', path: [...path, key], replacement: fc.constant(undefined), remove: true });
    }
    if (schema.maxProperties !== undefined) {
      add('too-many-properties', fc.constant(Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, i) => [`k${i}`, i]))));
    }
    if (depth < 3) {
      for (const [key, sub] of Object.entries(properties)) candidatesAt(ctx, sub, [...path, key], present[key], depth + 1, out);
    }
  }
}

/**
 * Bodies that break `schema` in exactly one labelled way, derived from valid ones: wrong types,
 * null where not nullable, missing required fields, out-of-range and fractional numbers,
 * stringified numbers and booleans, oversized and undersized strings and arrays, duplicate items,
 * unknown enum values, timestamps without an offset, pattern mismatches, and a body that is not an object.
 * `isValid` (the request schema's validator) drops any mutation that happens to still be valid.
 */
export function invalidBodyArb(ctx: GenContext, schema: JsonSchema, isValid: (body: unknown) => boolean): fc.Arbitrary<Mutation> {
  return validArb(ctx, schema)
    .chain((valid) => {
      const candidates: Candidate[] = [];
      candidatesAt(ctx, schema, [], valid, 0, candidates);
      candidates.push({ label: 'not-an-object', path: [], replacement: fc.constantFrom([], 'text', 42, null, true, [valid]) });
      // Each kind of defect equally often, whatever the number of places it fits.
      const labels = [...new Set(candidates.map((c) => c.label))];
      const chosen = fc.constantFrom(...labels).chain((label) => fc.constantFrom(...candidates.filter((c) => c.label === label)));
      return chosen.chain((candidate) =>
        candidate.replacement.map((replacement) => ({
          label: candidate.label,
          pointer: pointerOf(candidate.path),
          value: setAt(valid, candidate.path, replacement, candidate.remove),
        })),
      );
    })
    .filter((mutation) => !isValid(mutation.value));
}

/** A body the service must refuse before it reads it: not JSON, not application/json, over 1 MiB, or empty. */
export interface RawBody {
  label: string;
  payload: string;
  contentType?: string;
}

export function rawBodyArb(ctx: GenContext, schema: JsonSchema): fc.Arbitrary<RawBody> {
  return validArb(ctx, schema).chain((valid) => {
    const text = JSON.stringify(valid);
    return fc.constantFrom<RawBody>(
      { label: 'malformed-json', payload: text.slice(0, -1) || '{' },
      { label: 'malformed-json', payload: `${text},` },
      { label: 'malformed-json', payload: "{'name': 1}" },
      { label: 'wrong-content-type', payload: text, contentType: 'text/plain' },
      { label: 'wrong-content-type', payload: 'name=x', contentType: 'application/x-www-form-urlencoded' },
      { label: 'too-large', payload: JSON.stringify({ ...(valid as object), padding: 'x'.repeat(1024 * 1024 + 16) }) },
      { label: 'empty-body', payload: '' },
      // Deep nesting: the body parser refuses it with 422 before anything walks it.
      { label: 'deep-nesting', payload: `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}` },
    );
  });
}

/** Values of path and query parameters that are not ids: their valid and invalid forms. */
export const PARAM_VALUES: Record<string, { valid: fc.Arbitrary<string>; invalid: fc.Arbitrary<string> }> = {
  year: {
    valid: fc.integer({ min: 1990, max: 2040 }).map(String),
    invalid: fc.constantFrom('20x6', '5x', '0', '99999', '-2026', '2026 ', '+2026', '2026.0', '1e3', '٢٠٢٦'),
  },
  week: {
    valid: fc.integer({ min: 1, max: 52 }).map(String),
    invalid: fc.constantFrom('5x', '0', '54', '-1', '1.5', ' 12', '1e1', '99999999999999999999', '٥'),
  },
  from: {
    valid: dateTimeArb,
    invalid: fc.constantFrom(...NO_OFFSET, ...BAD_DATE_TIMES, 'x'.repeat(41)),
  },
  to: {
    valid: dateTimeArb,
    invalid: fc.constantFrom(...NO_OFFSET, ...BAD_DATE_TIMES, 'x'.repeat(41)),
  },
};

/**
 * Ids no record has: well-formed, malformed, overlong, or full of URL and path syntax. Never a bare
 * `.` or `..`: URL parsers (clients' and light-my-request's alike) resolve those dot segments, so the
 * request would go to another path, not carry the id.
 */
export const randomIdArb: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: fc.string({ unit, minLength: 1, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom('0', '-1', 'null', 'undefined', '%', '...', '?x=1', '#', ' ', "' OR '1'='1", 'a'.repeat(5_000)) },
  )
  .filter((id) => id !== '.' && id !== '..');
