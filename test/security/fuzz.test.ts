import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { SchemaOracle } from '../fuzz/checks.js';
import { failures, formatReport } from '../fuzz/cli.js';
import { Fuzzer, parseArgs, type FuzzReport } from '../fuzz/engine.js';
import { invalidBodyArb, validArb } from '../fuzz/generate.js';
import type { Operation } from '../fuzz/openapi.js';
import { describeEachStore } from '../support/harness.js';

/**
 * The OpenAPI-driven fuzzer (test/fuzz/) on every operation of the served document, small: a fixed
 * seed and a few valid and invalid requests per operation. `npm run fuzz -- --runs N` runs a big one.
 */
const RUNS = 6;
const SEED = 20260704;

describeEachStore('OpenAPI fuzzing', (h) => {
  let fuzzer: Fuzzer;
  let report: FuzzReport;

  beforeAll(async () => {
    fuzzer = await Fuzzer.create(h.app);
    report = await fuzzer.run({ runs: RUNS, seed: SEED });
  }, 180_000);

  it('fuzzes every operation of the document with valid and invalid requests', () => {
    expect(report.operations.length).toBe(fuzzer.operations.length);
    expect(fuzzer.operations.length).toBeGreaterThanOrEqual(75);
    for (const { operationId, stats } of report.operations) {
      expect(stats.sent, operationId).toBeGreaterThanOrEqual(RUNS);
    }
    expect(report.skipped).toBe(0);
    // The valid requests reach the success paths, not only the error ones.
    expect(report.totals.ok).toBeGreaterThan(report.totals.sent / 2);
  });

  it('answers every request without a 5xx, with a declared status and a body valid for it, accepting no invalid input, refusing no valid one by a rule its document does not name', () => {
    const figures = {
      '5xx': report.totals['5xx'],
      undocumented: report.totals.undocumented,
      schema: report.totals.schema,
      acceptedInvalid: report.totals.acceptedInvalid,
      consistency: report.totals.consistency,
      unexplained: report.totals.unexplained,
    };
    expect(figures, formatReport(report)).toEqual({ '5xx': 0, undocumented: 0, schema: 0, acceptedInvalid: 0, consistency: 0, unexplained: 0 });
    expect(formatReport(report)).toContain('unexplained rejections of valid inputs: 0');
    expect(failures(report.totals)).toBe(0);
  });

  it('generates valid bodies the request schema accepts and invalid ones it rejects, of every kind the issue lists', () => {
    const labels = new Set<string>();
    for (const op of fuzzer.operations.filter((o): o is Operation & { body: object } => o.body !== undefined)) {
      const isValid = (body: unknown) => fuzzer.oracle.requestBodyValid(op, body);
      for (const body of fc.sample(validArb(fuzzer.context, op.body), { seed: SEED, numRuns: 20 })) {
        if (fuzzer.oracle.requestBodyValid(op, body)) continue;
        // validArb may miss a cross-field rule of the schema (the fuzzer filters those out); it may not miss many.
        labels.add(`valid-miss ${op.operationId}`);
      }
      for (const mutation of fc.sample(invalidBodyArb(fuzzer.context, op.body, isValid), { seed: SEED, numRuns: 40 })) {
        expect(isValid(mutation.value), `${op.operationId} ${mutation.label} ${mutation.pointer}`).toBe(false);
        labels.add(mutation.label);
      }
    }
    expect([...labels].filter((l) => l.startsWith('valid-miss'))).toEqual([]);
    for (const kind of [
      'wrong-type',
      'null',
      'missing-required',
      'out-of-range',
      'not-integer',
      'oversized-string',
      'undersized-string',
      'oversized-array',
      'stringified-number',
      'stringified-boolean',
      'unknown-enum',
      'no-offset',
      'not-an-object',
    ]) {
      expect(labels, kind).toContain(kind);
    }
  });

  it('flags a 5xx, an undeclared status, an undeclared content type, a body off its schema and a problem with another status', () => {
    const oracle = new SchemaOracle(fuzzer.doc);
    const op = fuzzer.operations.find((o) => o.operationId === 'getProject')!;
    const json = 'application/json; charset=utf-8';
    const problem = (status: number) => ({ type: 'urn:x', title: 't', status, detail: 'd', code: 'c' });
    const checks = (status: number, contentType: string, body: unknown) =>
      oracle.checkResponse(op, { status, contentType, body, text: JSON.stringify(body) }).map((f) => f.check);
    expect(checks(200, json, { id: 'p', name: 'n', archived: false, billable: true, avatar: null, clientId: null, color: '#ef4444' })).toEqual([]);
    expect(checks(404, 'application/problem+json', problem(404))).toEqual([]);
    expect(checks(500, 'application/problem+json', problem(500))).toEqual(['5xx', 'undocumented']);
    expect(checks(418, 'application/problem+json', problem(418))).toEqual(['undocumented']);
    expect(checks(404, json, problem(404))).toEqual(['schema']);
    expect(checks(200, json, { id: 'p', name: 'n', archived: 'no', billable: true, avatar: null, clientId: null, color: '#ef4444' })).toEqual(['schema']);
    expect(checks(200, json, { id: 'p', name: 'n', billable: true, avatar: null, clientId: null, color: '#ef4444' })).toEqual(['schema']);
    expect(checks(404, 'application/problem+json', problem(400))).toEqual(['schema']);
  });
});

it('reads the fuzz options: --runs, --seed, --database, --only', () => {
  expect(parseArgs([])).toEqual({ runs: 50, seed: 20260704, database: 'sqlite::memory:', only: undefined });
  expect(parseArgs(['--runs', '200', '--seed=7', '--database', 'postgres://x/y', '--only', 'getAuth,listUsers'])).toEqual({
    runs: 200,
    seed: 7,
    database: 'postgres://x/y',
    only: ['getAuth', 'listUsers'],
  });
  expect(() => parseArgs(['--runs', '0'])).toThrow(/runs/);
  expect(() => parseArgs(['--bogus'])).toThrow(/unknown option/);
});
