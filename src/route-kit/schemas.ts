import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { GENERAL_PROBLEM_OF_STATUS, PROBLEM_TITLE } from '../domain/errors.js';
import { TOO_DEEP, UNSTORABLE_TEXT } from './body-limits.js';

/** Building blocks shared by every area's schemas. */

/** A value that may also be `null` (OpenAPI 3.0 `nullable`, understood by Ajv and fast-json-stringify). */
export const Nullable = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });

/** An instant: in with an offset (422 without), out as UTC with milliseconds and Z. */
export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', maxLength: 40, ...(description ? { description } : {}) });

/** A collection returned as a JSON object keyed by record id, in creation order. */
export const IdMap = <T extends TSchema>(record: T, description: string) =>
  Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: record, description });

/** A record id in a path: opaque and unbounded here, so a malformed or overlong id is 404, never 422. */
export const Id = Type.String({ description: 'Opaque record id' });

/** An ISO 4217 code as the service takes it: three upper-case letters (and a code Intl knows, a rule). */
export const CURRENCY_PATTERN = '^[A-Z]{3}$';

/** The characters of an IANA time-zone name (that it names a zone is a rule). */
export const TIME_ZONE_PATTERN = '^[A-Za-z][A-Za-z0-9_+\\-/]*$';

/** A name a person reads: trimmed by the service, 1–200 characters. */
export const Name = Type.String({ minLength: 1, maxLength: 200 });
export const Notes = Type.String({ maxLength: 10_000 });

export const Empty = Type.Object({}, { description: 'Empty object' });

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'Stable URI of the kind of problem' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'The kind of problem, e.g. validation, not-found, conflict' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          pointer: Type.String({ description: 'JSON Pointer into the request, e.g. /body/startedAt' }),
          message: Type.String(),
        }),
      ),
    ),
  },
  { $id: 'Problem', title: 'Problem', description: 'RFC 9457 problem details' },
);

const problemRef = Type.Ref(ProblemSchema);

function problemResponse(status: number, description?: string) {
  return {
    description: description ?? PROBLEM_TITLE[GENERAL_PROBLEM_OF_STATUS[status]],
    content: { 'application/problem+json': { schema: problemRef } },
  };
}

interface OperationSpec<P, Q, B, R> {
  operationId: string;
  tag: string;
  summary: string;
  /** What the operation does and the rules it applies beyond its schemas: every operation has one. */
  description: string;
  params?: P;
  querystring?: Q;
  body?: B;
  /** The 200 answer (202 when `accepted`). */
  response: R;
  /** The answer is 202 Accepted: the work goes on in the background, and the answer is its record. */
  accepted?: true;
  /** Problem statuses beyond the ones every operation can answer, with what they mean here. */
  errors?: Partial<Record<401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 423, string>>;
  /** No bearer token needed. */
  public?: boolean;
  /**
   * Files the operation also answers with 200, by media type, each with what it holds (a report's
   * `format=csv`): the 200 then lists JSON and each of these media types.
   */
  files?: Record<string, string>;
}

/** A file answered as it is (OpenAPI 3.0 binary), validated and serialized by nothing. */
const FILE_SCHEMA = { type: 'string', format: 'binary' } as const;

/**
 * Rules of every request value, beyond any one schema: quoted as the 422's `errors[].message` says them.
 * A value that breaks a declared schema (type, format, pattern, bound, enum) is 422 at its pointer with Ajv's message.
 */
const TEXT_RULES =
  `Any string, key or query value that holds U+0000 or a lone surrogate is 422 at its pointer: "${UNSTORABLE_TEXT}"; ` +
  `a body value deeper than the limit is 422 at its pointer: "${TOO_DEEP}".`;

/** The rule of every `name` a body takes (the service trims it first, so the schema cannot say it). */
const NAME_RULE = 'A `name` is trimmed: blank is 422 "must not be blank", and longer than 200 characters "must be at most 200 characters".';

/** The rule of a body's `name` bounded otherwise than `Name` (a tag's 100): the schema's bound decides the length. */
const nameRuleOf = (maxLength: number | undefined): string =>
  maxLength === undefined || maxLength === Name.maxLength
    ? NAME_RULE
    : `A \`name\` is trimmed: blank is 422 "must not be blank", and longer than ${maxLength} characters "must NOT have more than ${maxLength} characters".`;

/**
 * The one schema of a route: validation, TypeScript types, serialization and its OpenAPI operation.
 * Every operation answers 401, 404, 429 and 503; one with a body also 400, 413, 415 and 422; one with a
 * query string also 422 (its values are parsed strictly).
 */
export function operation<
  P extends TSchema = TSchema,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
  R extends TSchema = TSchema,
>(spec: OperationSpec<P, Q, B, R>) {
  const problems: Record<number, ReturnType<typeof problemResponse>> = {
    404: problemResponse(404, 'Not found: unknown workspace host, route or record'),
    429: problemResponse(429),
    503: problemResponse(503, 'Busy: the request collided with concurrent changes several times in a row and changed nothing; send it again after `Retry-After`'),
  };
  if (!spec.public) problems[401] = problemResponse(401);
  if (spec.body) {
    for (const status of [400, 413, 415, 422]) problems[status] = problemResponse(status);
  }
  if (spec.querystring) problems[422] = problemResponse(422);
  for (const [status, description] of Object.entries(spec.errors ?? {})) {
    problems[Number(status)] = problemResponse(Number(status), description);
  }
  // The rules of every value a request sends, named in each 422 with the message its problem carries.
  if (problems[422]) {
    const name = (spec.body as { properties?: Record<string, { maxLength?: number }> } | undefined)?.properties?.name;
    const rules = name !== undefined ? `${nameRuleOf(name.maxLength)} ${TEXT_RULES}` : TEXT_RULES;
    problems[422] = problemResponse(422, `${problems[422].description.replace(/\.$/, '')}. ${rules}`);
  }
  const schema: Record<string, unknown> = {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    ...(spec.public ? { security: [] } : {}),
    response: { [spec.accepted ? 202 : 200]: spec.files ? withFiles(spec.response, spec.files) : spec.response, ...problems },
  };
  if (spec.params) schema.params = spec.params;
  if (spec.querystring) schema.querystring = spec.querystring;
  if (spec.body) schema.body = spec.body;
  return schema as { params: P; querystring: Q; body: B; response: { 200: R; 202: R } };
}

/** A 200 of JSON or files: Fastify serializes the JSON by its schema and sends a file's stream as it is. */
function withFiles(json: TSchema, files: Record<string, string>) {
  const descriptions = Object.entries(files).map(([mediaType, what]) => `${mediaType}: ${what}`);
  return {
    description: `JSON by default; ${descriptions.join('; ')}`,
    content: {
      'application/json': { schema: json },
      ...Object.fromEntries(Object.keys(files).map((mediaType) => [mediaType, { schema: FILE_SCHEMA }])),
    },
  };
}

/** A string from a fixed list (OpenAPI 3.0 has no `const`, so not a union of literals). */
export const StringEnum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });
