import type { FastifyInstance } from 'fastify';
import type { CheckName, Finding, Reply, SchemaOracle } from './checks.js';
import { fillPath, type Operation } from './openapi.js';

/** Who sends a request: the workspace administrator, a User of it, or nobody (no token). */
export type CallerRole = 'admin' | 'user' | 'anonymous';

/** A workspace the fuzzer talks to, with the tokens of its administrator and of one User. */
export interface Scope {
  domain: string;
  host: string;
  organizationId: string;
  adminId: string;
  userId: string;
  tokens: { admin: string; user: string };
}

export interface CallOptions {
  query?: Record<string, string>;
  /** Appended to the query string as is (not encoded). */
  rawQuery?: string;
  body?: unknown;
  /** A raw payload (malformed JSON, another media type…) sent instead of `body`. */
  raw?: { payload: string; contentType?: string };
}

export interface Sent {
  url: string;
  reply: Reply;
  describe(): string;
}

export interface OperationStats {
  sent: number;
  ok: number;
  '5xx': number;
  undocumented: number;
  schema: number;
  acceptedInvalid: number;
  consistency: number;
  /** Schema-valid requests answered 422 by a rule the operation's document does not name. */
  unexplained: number;
}

export const emptyStats = (): OperationStats => ({
  sent: 0,
  ok: 0,
  '5xx': 0,
  undocumented: 0,
  schema: 0,
  acceptedInvalid: 0,
  consistency: 0,
  unexplained: 0,
});

const excerpt = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

/**
 * Sends requests through `app.inject` and judges every response with the oracle, whoever sends
 * it (the fuzzed request, the fixture set-up, the read-back checks): counts and findings per operation.
 */
export class Client {
  readonly stats = new Map<string, OperationStats>();
  readonly findings: Finding[] = [];
  private readonly byOperation = new Map<string, Operation>();

  constructor(
    readonly app: FastifyInstance,
    readonly oracle: SchemaOracle,
    readonly operations: Operation[],
    /** Findings kept in full per operation and check (the counts are always exact). */
    private readonly keepPerCheck = 5,
  ) {
    for (const op of operations) this.byOperation.set(`${op.method} ${op.path}`, op);
  }

  operation(method: string, path: string): Operation {
    const op = this.byOperation.get(`${method} ${path}`);
    if (!op) throw new Error(`the document has no operation ${method} ${path}`);
    return op;
  }

  statsOf(operationId: string): OperationStats {
    let stats = this.stats.get(operationId);
    if (!stats) {
      stats = emptyStats();
      this.stats.set(operationId, stats);
    }
    return stats;
  }

  record(operationId: string, check: CheckName, detail: string, sent?: Sent): void {
    const stats = this.statsOf(operationId);
    stats[check]++;
    const kept = this.findings.filter((f) => f.operationId === operationId && f.check === check).length;
    if (kept < this.keepPerCheck) {
      this.findings.push({
        operationId,
        check,
        detail,
        request: sent?.describe() ?? '',
        response: sent ? `${sent.reply.status} ${excerpt(sent.reply.text)}` : undefined,
      });
    }
  }

  async call(scope: Scope, caller: CallerRole, op: Operation, params: Record<string, string>, options: CallOptions = {}): Promise<Sent> {
    let url = `/api${fillPath(op.path, params)}`;
    if (options.query && Object.keys(options.query).length > 0) url += `?${new URLSearchParams(options.query).toString()}`;
    if (options.rawQuery) url += `${url.includes('?') ? '&' : '?'}${options.rawQuery}`;
    const headers: Record<string, string> = { host: scope.host, accept: 'application/json' };
    if (caller !== 'anonymous') headers.authorization = `Bearer ${scope.tokens[caller]}`;
    let payload: string | undefined;
    if (options.raw) {
      payload = options.raw.payload;
      if (options.raw.contentType !== undefined) headers['content-type'] = options.raw.contentType;
      else headers['content-type'] = 'application/json';
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await this.app.inject({ method: op.method, url, headers, payload });
    let body: unknown;
    try {
      body = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      body = undefined;
    }
    const reply: Reply = {
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? ''),
      body,
      text: response.body,
    };
    const sent: Sent = {
      url,
      reply,
      describe: () =>
        `${op.method} ${excerpt(url, 200)} as ${caller}` +
        (options.raw
          ? ` [${options.raw.contentType ?? 'application/json'}] ${excerpt(options.raw.payload, 300)}`
          : options.body !== undefined
            ? ` ${excerpt(JSON.stringify(options.body), 300)}`
            : ''),
    };
    const stats = this.statsOf(op.operationId);
    stats.sent++;
    if (reply.status >= 200 && reply.status < 300) stats.ok++;
    for (const finding of this.oracle.checkResponse(op, reply)) this.record(op.operationId, finding.check, finding.detail, sent);
    return sent;
  }
}

export const isSuccess = (sent: Sent) => sent.reply.status >= 200 && sent.reply.status < 300;
