/**
 * The served OpenAPI document, read as the fuzzer needs it: one entry per operation with its path
 * template, parameters, request body schema and declared responses, and `$ref` resolution against
 * `#/components/schemas/*`.
 */

export type JsonSchema = Record<string, any>;

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface Operation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** The path as the document writes it, under /api: `/projects/{projectId}`. */
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON request body schema, when the operation takes a body. */
  body?: JsonSchema;
  /** No bearer token needed. */
  public: boolean;
  /** Declared responses: status → media type → schema. */
  responses: Record<string, Record<string, JsonSchema>>;
  /** What the document says about the operation: its description and the description of each declared status. */
  description: string;
  responseDescriptions: Record<string, string>;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters: Parameter[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const responses: Operation['responses'] = {};
      const responseDescriptions: Record<string, string> = {};
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        responses[status] = {};
        responseDescriptions[status] = String(response.description ?? '');
        for (const [mediaType, content] of Object.entries<any>(response.content ?? {})) {
          responses[status][mediaType] = content.schema ?? {};
        }
      }
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema,
        public: Array.isArray(op.security) && op.security.length === 0,
        responses,
        description: String(op.description ?? ''),
        responseDescriptions,
      });
    }
  }
  return operations;
}

/** Follows a `#/components/schemas/X` reference (once; nested ones are resolved as they are reached). */
export function deref(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let depth = 0; typeof current?.$ref === 'string'; depth++) {
    const match = /^#\/components\/schemas\/(.+)$/.exec(current.$ref);
    if (!match || depth > 20) throw new Error(`cannot resolve ${current.$ref}`);
    const target = doc.components.schemas[decodeURIComponent(match[1])];
    if (!target) throw new Error(`no schema ${current.$ref}`);
    current = target;
  }
  return current;
}

/** The GET operation at exactly this path template, if the document has one. */
export function getAt(operations: Operation[], path: string): Operation | undefined {
  return operations.find((op) => op.method === 'GET' && op.path === path);
}

/** Fills a path template with values (URL-encoded). */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodePathValue(value);
  });
}

/** encodeURIComponent, except that a lone surrogate goes out as the (invalid UTF-8) bytes of its code unit. */
function encodePathValue(value: string): string {
  if (!/\p{Cs}/u.test(value)) return encodeURIComponent(value);
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}
