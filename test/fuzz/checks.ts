import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema, OpenApiDocument, Operation } from './openapi.js';

/**
 * The oracle: what every response must be, judged only from the served document. Ajv validates
 * bodies against the declared schemas (OpenAPI 3.0 `nullable` included), with the formats Fastify
 * itself uses, and types never coerced.
 */

// ajv-formats is CommonJS with a default export.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof import('ajv-formats').default;

export type CheckName = '5xx' | 'undocumented' | 'schema' | 'acceptedInvalid' | 'consistency' | 'unexplained';

export interface Finding {
  operationId: string;
  check: CheckName;
  detail: string;
  request: string;
  response?: string;
}

export interface Reply {
  status: number;
  contentType: string;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown;
  text: string;
}

const COMPONENTS = 'components';

/** Rewrites `#/components/...` refs of a schema that lives outside the components document. */
function anchorRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anchorRefs);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${COMPONENTS}${value}` : anchorRefs(value);
  }
  return out;
}

export class SchemaOracle {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDocument) {
    this.ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ components: doc.components }, COMPONENTS);
  }

  validator(key: string, schema: JsonSchema): ValidateFunction {
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(anchorRefs(schema) as object);
      this.cache.set(key, validate);
    }
    return validate;
  }

  /** Whether a body satisfies the operation's request schema (as the service's own Ajv would judge it). */
  requestBodyValid(op: Operation, body: unknown): boolean {
    if (!op.body) return body === undefined;
    return this.validator(`${op.operationId} request`, op.body)(body) as boolean;
  }

  /**
   * The findings a response earns on its own: a 5xx; a status the operation does not declare; a
   * content type it does not declare for that status; a body that breaks the declared schema; a
   * problem whose `status` differs from the response's.
   */
  checkResponse(op: Operation, reply: Reply): { check: CheckName; detail: string }[] {
    const findings: { check: CheckName; detail: string }[] = [];
    if (reply.status >= 500) findings.push({ check: '5xx', detail: `status ${reply.status}` });
    const declared = op.responses[String(reply.status)] ?? op.responses[`${String(reply.status)[0]}XX`] ?? op.responses.default;
    if (!declared) {
      findings.push({ check: 'undocumented', detail: `status ${reply.status} is not declared` });
      return findings;
    }
    const mediaTypes = Object.keys(declared);
    if (mediaTypes.length === 0) return findings;
    const mediaType = reply.contentType.split(';')[0].trim().toLowerCase();
    if (!mediaTypes.includes(mediaType)) {
      findings.push({ check: 'schema', detail: `content type "${mediaType}" for ${reply.status}; declared: ${mediaTypes.join(', ')}` });
      return findings;
    }
    // A file (a report's CSV, XLSX or PDF) is declared as binary: its media type is the check.
    if (!mediaType.endsWith('json')) return findings;
    if (reply.body === undefined && reply.text !== 'null') {
      findings.push({ check: 'schema', detail: `${reply.status} body is not JSON` });
      return findings;
    }
    const validate = this.validator(`${op.operationId} ${reply.status} ${mediaType}`, declared[mediaType]);
    if (!validate(reply.body === undefined ? null : reply.body)) {
      const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
      findings.push({ check: 'schema', detail: `${reply.status} body: ${errors.join('; ')}` });
    }
    if (mediaType === 'application/problem+json' && (reply.body as { status?: unknown } | null)?.status !== reply.status) {
      findings.push({ check: 'schema', detail: `problem status ${(reply.body as any)?.status} in a ${reply.status} response` });
    }
    return findings;
  }
}

/**
 * The rules of a schema-valid request's 422 that the operation's document does not name. A rule is
 * named when the operation's description or its 422 response description names the field the
 * problem points at (in backticks: `currency`, `endedAt`), or quotes the problem's message (a rule
 * of every text field, such as "without NUL characters"). A 422 without `errors` names no field,
 * so it is never explained. Empty when the answer is not 422 or every rule is named.
 */
export function unexplainedRejections(op: Operation, reply: Reply): string[] {
  if (reply.status !== 422) return [];
  const text = `${op.description}\n${op.responseDescriptions['422'] ?? ''}`;
  const errors = (reply.body as { errors?: { pointer?: unknown; message?: unknown }[] } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return ['a 422 without errors[] names no field'];
  const unexplained: string[] = [];
  for (const error of errors) {
    const pointer = String(error.pointer ?? '');
    const message = String(error.message ?? '');
    const segments = pointer.split('/').slice(2).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const field = [...segments].reverse().find((s) => !/^\d+$/.test(s));
    const named = field !== undefined && text.includes(`\`${field}\``);
    const quoted = message !== '' && text.includes(message);
    if (!named && !quoted) unexplained.push(`${pointer} ${message}`);
  }
  return unexplained;
}
