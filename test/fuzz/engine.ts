import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import { SchemaOracle, unexplainedRejections, type Finding } from './checks.js';
import { Client, emptyStats, isSuccess, type CallerRole, type OperationStats, type Scope, type Sent } from './client.js';
import {
  invalidBodyArb,
  PARAM_VALUES,
  randomIdArb,
  rawBodyArb,
  validArb,
  type GenContext,
  type Mutation,
  type RawBody,
} from './generate.js';
import { getAt, operationsOf, type OpenApiDocument, type Operation } from './openapi.js';
import { FixtureError, World, type Params } from './world.js';

/**
 * The fuzzer: for every operation of the served OpenAPI document, `runs` generated valid requests
 * and `runs` generated invalid ones, sent through `app.inject` as the administrator, a User or
 * nobody, each judged by the oracle (no 5xx, a declared status, a body valid for it) and by the
 * effects: an invalid request is never 2xx and changes nothing; a request answered with an error
 * changes nothing; a created or updated record reads back as answered; a deleted one reads 404.
 */

export interface FuzzOptions {
  /** Valid and invalid requests generated per operation (each). */
  runs: number;
  seed: number;
  /** Only operations whose operationId is listed. */
  only?: string[];
  /** Called after each operation, for progress output. */
  onOperation?: (op: Operation, stats: OperationStats) => void;
  /** Called with every generated request and its answer (for looking into what the fuzzer sends). */
  onCase?: (op: Operation, testCase: { valid: boolean; label: string; caller: CallerRole; target: string }, sent: Sent) => void;
}

export interface FuzzReport {
  seed: number;
  runs: number;
  operations: { operationId: string; method: string; path: string; stats: OperationStats }[];
  totals: OperationStats;
  findings: Finding[];
  /** Generated cases skipped because a fixture could not be made (not a finding about the API under test). */
  skipped: number;
}

/** Operations that rename or delete the workspace: each request gets a workspace of its own. */
const ISOLATED = new Set(['deleteOrganization', 'renameOrganization']);

/** Where to look for a change when a path has no GET of its own (null: nothing to read). */
const OBSERVER_OVERRIDES: Record<string, string | null> = {
  '/timesheets/auto-lock': '/organization',
  '/timesheets/lock': '/timesheets/locks',
  '/timesheets/lock/{lockId}': '/timesheets/locks',
  '/subscriptions/{subscriptionId}': '/subscriptions',
  '/auth/one-time': null,
};

type Target = 'known' | 'random';

interface Case {
  valid: boolean;
  /** The kind of defect of an invalid case (or of its ids). */
  label: string;
  caller: CallerRole;
  target: Target;
  /** Which seeded record set to use. */
  pick: number;
  /** Random values for id parameters (used when target is random). */
  randomIds: Record<string, string>;
  /** Randomize every id parameter, not only the last one. */
  randomAll: boolean;
  /** Values of non-id path parameters (year, week). */
  pathValues: Record<string, string>;
  query?: Record<string, string>;
  /** Appended to the query string as is (not encoded). */
  rawQuery?: string;
  body?: unknown;
  raw?: RawBody;
}

const hash = (text: string) => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
};

const callerArb = (anonymous: boolean) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant<CallerRole>('admin') },
    { weight: 3, arbitrary: fc.constant<CallerRole>('user') },
    { weight: anonymous ? 1 : 0, arbitrary: fc.constant<CallerRole>('anonymous') },
  );

const idParamsOf = (op: Operation) => op.pathParams.filter((p) => !(p.name in PARAM_VALUES)).map((p) => p.name);
const valueParamsOf = (op: Operation) => op.pathParams.filter((p) => p.name in PARAM_VALUES).map((p) => p.name);

export class Fuzzer {
  readonly operations: Operation[];
  readonly oracle: SchemaOracle;
  readonly client: Client;
  private world!: World;
  private tables: string[] = [];
  private skipped = 0;

  constructor(
    readonly app: FastifyInstance,
    readonly doc: OpenApiDocument,
  ) {
    this.operations = operationsOf(doc);
    this.oracle = new SchemaOracle(doc);
    this.client = new Client(app, this.oracle, this.operations);
  }

  /** Reads the served document and seeds a workspace. */
  static async create(app: FastifyInstance): Promise<Fuzzer> {
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json', headers: { host: app.config.baseDomain } });
    if (response.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${response.statusCode}`);
    const fuzzer = new Fuzzer(app, JSON.parse(response.body));
    fuzzer.world = await World.seed(fuzzer.client);
    fuzzer.tables = await tableNames(app);
    return fuzzer;
  }

  get context(): GenContext {
    return { doc: this.doc, pools: this.world.pools };
  }

  async run(options: FuzzOptions): Promise<FuzzReport> {
    for (const op of this.operations) {
      if (options.only && !options.only.includes(op.operationId)) continue;
      const seed = (options.seed ^ hash(op.operationId)) | 0;
      const valid = fc.sample(this.validCaseArb(op), { seed, numRuns: options.runs });
      const invalidArb = this.invalidCaseArb(op);
      const invalid = invalidArb ? fc.sample(invalidArb, { seed: seed + 1, numRuns: options.runs }) : [];
      for (const testCase of [...valid, ...invalid]) {
        try {
          await this.runCase(op, testCase, options.onCase);
        } catch (error) {
          if (!(error instanceof FixtureError)) throw error;
          this.skipped++;
        }
      }
      options.onOperation?.(op, this.client.statsOf(op.operationId));
    }
    return this.report(options);
  }

  report(options: Pick<FuzzOptions, 'seed' | 'runs'>): FuzzReport {
    const totals: OperationStats = emptyStats();
    const operations = this.operations.map((op) => {
      const stats = this.client.statsOf(op.operationId);
      for (const key of Object.keys(totals) as (keyof OperationStats)[]) totals[key] += stats[key];
      return { operationId: op.operationId, method: op.method, path: op.path, stats };
    });
    return { seed: options.seed, runs: options.runs, operations, totals, findings: this.client.findings, skipped: this.skipped };
  }

  // -------------------------------------------------------------------------------------------
  // Generation

  private queryArb(op: Operation): fc.Arbitrary<Record<string, string>> {
    const model: Record<string, fc.Arbitrary<string>> = {};
    const { pools } = this.world;
    for (const param of op.queryParams) {
      const known = PARAM_VALUES[param.name]?.valid;
      const ids = param.name === 'userId' ? pools.userIds : param.name === 'projectId' ? pools.projectIds : undefined;
      model[param.name] =
        known ??
        (ids
          ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: randomIdArb.filter((s) => s.length <= (param.schema.maxLength ?? Infinity)) })
          : (validArb(this.context, param.schema) as fc.Arbitrary<string>));
    }
    return fc.record(model, { requiredKeys: op.queryParams.filter((p) => p.required).map((p) => p.name) });
  }

  private bodyArb(op: Operation): fc.Arbitrary<unknown> {
    if (!op.body) return fc.constant(undefined);
    return validArb(this.context, op.body).filter((body) => this.oracle.requestBodyValid(op, body));
  }

  private validCaseArb(op: Operation): fc.Arbitrary<Case> {
    const ids = idParamsOf(op);
    const values = valueParamsOf(op);
    return fc.record({
      valid: fc.constant(true),
      label: fc.constant('valid'),
      caller: callerArb(true),
      target: ids.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constant<Target>('known') }, { weight: 1, arbitrary: fc.constant<Target>('random') }) : fc.constant<Target>('known'),
      pick: fc.nat(),
      randomIds: fc.record(Object.fromEntries(ids.map((name) => [name, randomIdArb]))),
      randomAll: fc.boolean(),
      pathValues: fc.record(Object.fromEntries(values.map((name) => [name, PARAM_VALUES[name].valid]))),
      query: this.queryArb(op),
      body: this.bodyArb(op),
      raw: fc.constant(undefined),
    });
  }

  /** Invalid cases: a broken body, a raw body refused before parsing, a bad query value or a bad path value. */
  private invalidCaseArb(op: Operation): fc.Arbitrary<Case> | undefined {
    const ctx = this.context;
    const kinds: fc.WeightedArbitrary<Partial<Case>>[] = [];
    if (op.body) {
      const isValid = (body: unknown) => this.oracle.requestBodyValid(op, body);
      kinds.push({ weight: 6, arbitrary: invalidBodyArb(ctx, op.body, isValid).map((m: Mutation) => ({ label: `${m.label} ${m.pointer}`, body: m.value })) });
      kinds.push({ weight: 2, arbitrary: rawBodyArb(ctx, op.body).map((raw) => ({ label: raw.label, raw })) });
    }
    const breakableQuery = op.queryParams.filter((p) => PARAM_VALUES[p.name] || p.schema.maxLength !== undefined);
    if (breakableQuery.length > 0) {
      kinds.push({
        weight: 3,
        arbitrary: fc.tuple(this.queryArb(op), fc.constantFrom(...breakableQuery)).chain(([query, param]) => {
          const bad = PARAM_VALUES[param.name]?.invalid ?? fc.constant('x'.repeat((param.schema.maxLength ?? 0) + 1));
          return bad.map((value) => ({ label: `bad-query ${param.name}`, query: { ...query, [param.name]: value } }));
        }),
      });
      // Long query texts built against the log redaction: raw `?`, `;` and secret
      // words without `=`, sent unencoded as the value of a parameter that cannot take them.
      kinds.push({
        weight: 1,
        arbitrary: fc.tuple(this.queryArb(op), fc.constantFrom(...breakableQuery), fc.constantFrom('?', '?token', ';key?', '?a')).map(([query, param, unit]) => {
          const { [param.name]: _dropped, ...rest } = query;
          return { label: `long-query ${param.name}`, query: rest, rawQuery: `${param.name}=${unit.repeat(Math.ceil(15_000 / unit.length))}` };
        }),
      });
    }
    const values = valueParamsOf(op);
    if (values.length > 0) {
      kinds.push({
        weight: 3,
        arbitrary: fc.constantFrom(...values).chain((name) =>
          PARAM_VALUES[name].invalid.map((value) => ({ label: `bad-path ${name}`, pathValues: { [name]: value } })),
        ),
      });
    }
    if (kinds.length === 0) return undefined;
    return fc.tuple(this.validCaseArb(op), fc.oneof(...kinds), callerArb(false)).map(([base, defect, caller]) => ({
      ...base,
      ...defect,
      pathValues: { ...base.pathValues, ...defect.pathValues },
      body: defect.raw ? undefined : 'body' in defect ? defect.body : base.body,
      valid: false,
      caller,
      target: 'known' as Target,
    }));
  }

  // -------------------------------------------------------------------------------------------
  // Execution and checks

  private async paramsFor(op: Operation, testCase: Case, scope: Scope): Promise<Params> {
    const ids = idParamsOf(op);
    let params: Params = {};
    if (ids.length > 0 && scope === this.world.main) {
      const fresh = (op.method === 'PUT' || op.method === 'DELETE') && this.world.hasFresh(op.path);
      if (fresh && testCase.target === 'known') {
        params = await this.world.fresh(op.path, testCase.caller);
      } else {
        const options = this.world.seeded(op.path, testCase.caller);
        params = { ...options[testCase.pick % options.length] };
      }
      if (testCase.target === 'random') {
        for (const [index, name] of ids.entries()) {
          if (testCase.randomAll || index === ids.length - 1) params[name] = testCase.randomIds[name];
        }
      }
      for (const name of ids) params[name] ??= testCase.randomIds[name];
    }
    return { ...params, ...testCase.pathValues };
  }

  private observerOf(op: Operation, params: Params): { op: Operation; params: Params } | undefined {
    let template: string | null | undefined = op.path in OBSERVER_OVERRIDES ? OBSERVER_OVERRIDES[op.path] : op.path;
    while (template) {
      const found = getAt(this.operations, template);
      if (found) {
        const needed = Object.fromEntries(found.pathParams.map((p) => [p.name, params[p.name]]));
        return Object.values(needed).every((v) => v !== undefined) ? { op: found, params: needed } : undefined;
      }
      template = template.includes('/') ? template.slice(0, template.lastIndexOf('/')) : null;
    }
    return undefined;
  }

  /** The stored state a rejected request must leave as it was: row counts of every table, and the nearest GET. */
  private async snapshot(scope: Scope, observer: { op: Operation; params: Params } | undefined): Promise<unknown> {
    const counts = await rowCounts(this.app, this.tables);
    if (!observer) return { counts };
    const sent = await this.client.call(scope, 'admin', observer.op, observer.params);
    return { counts, observed: { status: sent.reply.status, body: withoutVolatile(sent.reply.body) } };
  }

  private async runCase(op: Operation, testCase: Case, onCase?: FuzzOptions['onCase']): Promise<void> {
    const scope = ISOLATED.has(op.operationId) ? await this.world.isolated() : this.world.main;
    const params = await this.paramsFor(op, testCase, scope);
    const observer = this.observerOf(op, params);
    const before = await this.snapshot(scope, observer);
    const sent = await this.client.call(scope, testCase.caller, op, params, {
      query: testCase.query,
      rawQuery: testCase.rawQuery,
      body: testCase.body,
      raw: testCase.raw ? { payload: testCase.raw.payload, contentType: testCase.raw.contentType } : undefined,
    });
    onCase?.(op, testCase, sent);
    const anonymous = testCase.caller === 'anonymous' && !op.public;
    const expectRejected = !testCase.valid || testCase.target === 'random' || anonymous;
    if (isSuccess(sent)) {
      if (expectRejected) {
        const why = !testCase.valid
          ? `invalid input: ${testCase.label}`
          : testCase.target === 'random'
            ? `an unknown id (${testCase.randomAll ? 'all ids' : 'last id'})`
            : 'a request without a token';
        this.client.record(op.operationId, 'acceptedInvalid', `${sent.reply.status} for ${why}`, sent);
        return;
      }
      await this.checkEffects(op, scope, testCase.caller, params, sent);
      return;
    }
    if (testCase.valid) {
      // The positive check: a request the schemas accept is refused only by a rule the document names.
      const unexplained = unexplainedRejections(op, sent.reply);
      if (unexplained.length > 0) this.client.record(op.operationId, 'unexplained', `422 for a schema-valid request: ${unexplained.join('; ')}`, sent);
    }
    const after = await this.snapshot(scope, observer);
    if (!isDeepStrictEqual(before, after)) {
      this.client.record(op.operationId, 'acceptedInvalid', `a ${sent.reply.status} answer changed stored state (${testCase.label}): ${describeChange(before, after)}`, sent);
    }
  }

  /** Read-after-write: a created or updated record reads back as answered; a deleted one reads 404. */
  private async checkEffects(op: Operation, scope: Scope, caller: CallerRole, params: Params, sent: Sent): Promise<void> {
    const record = sent.reply.body as Record<string, unknown> | null;
    if (op.method === 'POST' && record && typeof record.id === 'string') {
      const read = this.readBackOf(op, params, record.id);
      if (read) await this.compareRead(op, scope, caller, read, record, 'created');
    }
    if ((op.method === 'PUT' || op.method === 'PATCH') && record && typeof record === 'object' && !Array.isArray(record)) {
      const readOp = getAt(this.operations, op.path) ?? (op.path.startsWith('/requests/{requestId}') ? getAt(this.operations, '/requests/{requestId}') : undefined);
      if (readOp && Object.keys(record).length > 0) {
        await this.compareRead(op, scope, caller, { op: readOp, params: pick(params, readOp), listKey: undefined }, record, 'updated');
      }
    }
    if (op.method === 'DELETE') await this.checkDeleted(op, scope, caller, params);
  }

  private readBackOf(op: Operation, params: Params, id: string): { op: Operation; params: Params; listKey?: string } | undefined {
    const item = this.operations.find((o) => o.method === 'GET' && new RegExp(`^${escapeRegExp(op.path)}/\\{[^}/]+\\}$`).test(o.path));
    if (item) {
      const name = item.pathParams[item.pathParams.length - 1].name;
      return { op: item, params: { ...pick(params, item), [name]: id } };
    }
    if (op.path.startsWith('/requests/')) return { op: getAt(this.operations, '/requests/{requestId}')!, params: { requestId: id } };
    const list = getAt(this.operations, op.path) ?? (op.path === '/timesheets/lock' ? getAt(this.operations, '/timesheets/locks') : undefined);
    return list ? { op: list, params: pick(params, list), listKey: id } : undefined;
  }

  private async readAs(scope: Scope, caller: CallerRole, read: { op: Operation; params: Params }): Promise<Sent> {
    const first = await this.client.call(scope, caller === 'anonymous' ? 'admin' : caller, read.op, read.params);
    if ((first.reply.status === 403 || first.reply.status === 404) && caller === 'user') {
      return this.client.call(scope, 'admin', read.op, read.params);
    }
    return first;
  }

  private async compareRead(
    op: Operation,
    scope: Scope,
    caller: CallerRole,
    read: { op: Operation; params: Params; listKey?: string },
    record: Record<string, unknown>,
    what: string,
  ): Promise<void> {
    const got = await this.readAs(scope, caller, read);
    if (got.reply.status !== 200) {
      this.client.record(op.operationId, 'consistency', `${what} record ${String(record.id ?? '')} reads ${got.reply.status} at ${read.op.operationId}`, got);
      return;
    }
    let stored = got.reply.body as Record<string, unknown> | undefined;
    if (read.listKey !== undefined) stored = (stored as Record<string, any> | undefined)?.[read.listKey];
    if (!stored) {
      this.client.record(op.operationId, 'consistency', `${what} record ${read.listKey} is missing from ${read.op.operationId}`, got);
      return;
    }
    const sameSchema =
      read.listKey === undefined &&
      isDeepStrictEqual(op.responses['200']?.['application/json'], read.op.responses['200']?.['application/json']);
    const mismatched = sameSchema
      ? isDeepStrictEqual(withoutVolatile(stored), withoutVolatile(record))
        ? []
        : [...new Set([...Object.keys(stored), ...Object.keys(record)])].filter((k) => !isDeepStrictEqual(stored![k], record[k]))
      : Object.keys(record).filter((k) => k in stored! && k !== 'lastUsedAt' && !isDeepStrictEqual(stored![k], record[k]));
    if (mismatched.length > 0) {
      const diff = mismatched.slice(0, 3).map((k) => `${k}: answered ${JSON.stringify(record[k])?.slice(0, 80)}, reads ${JSON.stringify(stored![k])?.slice(0, 80)}`);
      this.client.record(op.operationId, 'consistency', `${what} record reads back differently at ${read.op.operationId}: ${diff.join('; ')}`, got);
    }
  }

  private async checkDeleted(op: Operation, scope: Scope, caller: CallerRole, params: Params): Promise<void> {
    const item = getAt(this.operations, op.path);
    const id = params[op.pathParams[op.pathParams.length - 1]?.name ?? ''];
    if (item) {
      const got = await this.client.call(scope, caller === 'anonymous' ? 'admin' : caller, item, params);
      if (got.reply.status !== 404) this.client.record(op.operationId, 'consistency', `deleted record reads ${got.reply.status}, not 404`, got);
    } else {
      const list = getAt(this.operations, op.path.slice(0, op.path.lastIndexOf('/'))) ?? (op.path === '/timesheets/lock/{lockId}' ? getAt(this.operations, '/timesheets/locks') : undefined);
      if (list && id !== undefined) {
        const got = await this.client.call(scope, caller === 'anonymous' ? 'admin' : caller, list, pick(params, list));
        if (got.reply.status === 200 && got.reply.body && typeof got.reply.body === 'object' && id in (got.reply.body as object)) {
          this.client.record(op.operationId, 'consistency', `deleted record ${id} is still listed by ${list.operationId}`, got);
        }
      }
    }
    const again = await this.client.call(scope, caller, op, params);
    if (again.reply.status !== 404) this.client.record(op.operationId, 'consistency', `deleting again answers ${again.reply.status}, not 404`, again);
  }
}

const pick = (params: Params, op: Operation): Params => Object.fromEntries(op.pathParams.map((p) => [p.name, params[p.name]]));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Drops values that change without a write (an API key's lastUsedAt is touched by the request itself). */
function withoutVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatile);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'lastUsedAt').map(([k, v]) => [k, withoutVolatile(v)]));
}

function describeChange(before: any, after: any): string {
  const tables = Object.keys(after.counts).filter((t) => before.counts[t] !== after.counts[t]);
  const parts = tables.map((t) => `${t} ${before.counts[t]} → ${after.counts[t]}`);
  if (!isDeepStrictEqual(before.observed, after.observed)) parts.push('the nearest GET answers differently');
  return parts.join(', ');
}

async function tableNames(app: FastifyInstance): Promise<string[]> {
  const tables = await app.db.introspection.getTables();
  const schema = app.store.dialect === 'postgres' ? (app.store.schema ?? 'public') : undefined;
  return tables
    .filter((t) => !t.isView && (schema === undefined || t.schema === schema) && t.name !== 'timetrack_migrations')
    .map((t) => t.name)
    .sort();
}

async function rowCounts(app: FastifyInstance, tables: string[]): Promise<Record<string, number>> {
  const columns = tables.map((t) => sql`(select count(*) from ${sql.table(t)}) as ${sql.ref(t)}`);
  const { rows } = await sql<Record<string, number>>`select ${sql.join(columns)}`.execute(app.db);
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
}

/** Parses `--runs N --seed S --database URL --only a,b` (the CLI's options). */
export function parseArgs(argv: string[]): { runs: number; seed: number; database: string; only?: string[] } {
  const options = { runs: 50, seed: 20260704, database: 'sqlite::memory:', only: undefined as string[] | undefined };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--runs':
        options.runs = Number(value());
        break;
      case '--seed':
        options.seed = Number(value());
        break;
      case '--database':
        options.database = value();
        break;
      case '--only':
        options.only = value().split(',');
        break;
      default:
        throw new Error(`unknown option ${argv[i]} (known: --runs N, --seed S, --database URL, --only id,id)`);
    }
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs must be a whole number ≥ 1');
  if (!Number.isInteger(options.seed)) throw new Error('--seed must be a whole number');
  return options;
}
