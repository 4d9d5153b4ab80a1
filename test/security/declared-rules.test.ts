import { beforeAll, expect, it } from 'vitest';
import { SchemaOracle, unexplainedRejections } from '../fuzz/checks.js';
import { operationsOf, type OpenApiDocument, type Operation } from '../fuzz/openapi.js';
import { as, describeEachStore, type TestWorkspace } from '../support/harness.js';

/**
 * The document says what the service does. A value the service refuses for its
 * form (a format, pattern or bound) is one the served schema refuses too; a schema-valid value the
 * service still refuses (a referential or cross-field rule, a code no pattern can list) is 422 at a
 * field the operation's document names, or with a message it quotes.
 */

interface Case {
  operationId: string;
  /** Path values by parameter name ({userId} is the administrator's own). */
  params?: Record<string, string>;
  body: Record<string, unknown>;
  pointer: string;
}

const GEOFENCE = { latitude: 52.52, longitude: 13.405, radius: 150 };
const RATE = { currency: 'EUR', from: '2026-01-01T00:00:00Z', taxRate: 19, value: 80 };

/** Refused by the service for their form: the schema must refuse them too. */
const DECLARED: Case[] = [
  { operationId: 'updateOrganization', body: { currency: 'eur' }, pointer: '/body/currency' },
  { operationId: 'updateOrganization', body: { timeZone: '+01:00' }, pointer: '/body/timeZone' },
  { operationId: 'createCostRate', body: { ...RATE, currency: 'Eur' }, pointer: '/body/currency' },
  { operationId: 'updateUserPreferences', body: { locale: 'en_US' }, pointer: '/body/locale' },
  { operationId: 'updateUserPreferences', body: { timeZone: 'Europe Berlin' }, pointer: '/body/timeZone' },
  { operationId: 'postReceipt', body: { receiptBase64: 'YR==' }, pointer: '/body/receiptBase64' },
  { operationId: 'postReceipt', body: { receiptBase64: '' }, pointer: '/body/receiptBase64' },
  { operationId: 'createGeofence', body: { ...GEOFENCE, radius: -5 }, pointer: '/body/radius' },
];

/** Schema-valid, refused by a rule beyond the schema: the operation's document must name it. */
const DESCRIBED: Case[] = [
  { operationId: 'updateOrganization', body: { currency: 'XYZ' }, pointer: '/body/currency' },
  { operationId: 'updateOrganization', body: { timeZone: 'Europe/Nowhere' }, pointer: '/body/timeZone' },
  { operationId: 'updateOrganization', body: { coreHours: { start: '18:00', end: '09:00' } }, pointer: '/body/coreHours/start' },
  { operationId: 'updateOrganization', body: { name: '   ' }, pointer: '/body/name' },
  { operationId: 'createCostRate', body: { ...RATE, to: '2025-06-01T00:00:00Z' }, pointer: '/body/to' },
  { operationId: 'updateUserPreferences', body: { notifications: { weeklyDigest: { email: true } } }, pointer: '/body/notifications/weeklyDigest' },
  { operationId: 'createGeofence', body: { ...GEOFENCE, radius: 0 }, pointer: '/body/radius' },
  { operationId: 'createGeofence', body: { ...GEOFENCE, projectId: 'no-such-project' }, pointer: '/body/projectId' },
  { operationId: 'inviteUser', body: { email: 'two@@example.com', name: 'Two' }, pointer: '/body/email' },
  { operationId: 'createActivity', body: { name: 'a\u0000b', startedAt: '2026-07-01T09:00:00Z', endedAt: '2026-07-01T10:00:00Z' }, pointer: '/body/name' },
  { operationId: 'createActivity', body: { name: 'Work', startedAt: '2026-07-01T09:00:00Z', endedAt: '2026-07-01T08:00:00Z' }, pointer: '/body/endedAt' },
  { operationId: 'createReport', body: { name: 'R', period: 'custom', start: '2026-07-02T00:00:00Z', end: '2026-07-01T00:00:00Z', dimensions: ['project'], metrics: ['time'] }, pointer: '/body/end' },
];

describeEachStore('The document names the rules the service applies', (h) => {
  let operations: Operation[];
  let oracle: SchemaOracle;
  let ws: TestWorkspace;

  beforeAll(async () => {
    ws = await h.workspace();
    const doc = (await as(h, ws).get('/api/openapi.json')).body as OpenApiDocument;
    operations = operationsOf(doc);
    oracle = new SchemaOracle(doc);
  });

  const send = (c: Case) => {
    const op = operations.find((o) => o.operationId === c.operationId)!;
    const params: Record<string, string> = { userId: ws.admin.userId, ...c.params };
    const url = `/api${op.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name])}`;
    return { op, response: as(h, ws)[op.method.toLowerCase() as 'post' | 'put'](url, c.body) };
  };

  it('declares every format, pattern and bound the service enforces: a value refused for its form breaks the served schema', async () => {
    for (const c of DECLARED) {
      const { op, response } = send(c);
      const res = await response;
      expect(res.status, `${c.operationId} ${JSON.stringify(c.body)}`).toBe(422);
      expect(res.body.errors[0].pointer).toBe(c.pointer);
      expect(oracle.requestBodyValid(op, c.body), `${c.operationId} ${JSON.stringify(c.body)} passes the schema`).toBe(false);
    }
  });

  it('declares the path forms of a timesheet week: a year of four digits and a week of one or two', async () => {
    const op = operations.find((o) => o.operationId === 'createTimesheetUnlockRequest')!;
    const schemaOf = (name: string) => op.pathParams.find((p) => p.name === name)!.schema;
    const year = oracle.validator('year', schemaOf('year'));
    const week = oracle.validator('week', schemaOf('week'));
    for (const bad of ['5x', '20266', '+202', '٢٠٢٦']) expect(year(bad), bad).toBe(false);
    for (const bad of ['5x', '123', ' 1', '1.5']) expect(week(bad), bad).toBe(false);
    expect([year('2026'), week('7'), week('53')]).toEqual([true, true, true]);
    const res = await as(h, ws).post('/api/requests/timesheets/5x/10/unlock');
    expect([res.status, res.body.errors[0].pointer]).toEqual([422, '/path/year']);
  });

  it('a schema-valid request is never 422 unless its operation\'s document names the rule (the field, or the message)', async () => {
    for (const c of DESCRIBED) {
      const { op, response } = send(c);
      expect(oracle.requestBodyValid(op, c.body), `${c.operationId} ${JSON.stringify(c.body)} breaks the schema`).toBe(true);
      const res = await response;
      expect(res.status, `${c.operationId} ${JSON.stringify(c.body)}`).toBe(422);
      expect(res.body.errors[0].pointer).toBe(c.pointer);
      const reply = { status: res.status, contentType: String(res.headers['content-type']), body: res.body, text: res.text };
      expect(unexplainedRejections(op, reply), `${c.operationId} ${JSON.stringify(c.body)}`).toEqual([]);
    }
  });

  it('a name counts its 200 characters as the schema does, in code points: 200 emoji are a name, 201 are not', async () => {
    const ok = await as(h, ws).post('/api/users', { email: 'emoji@example.com', name: '😀'.repeat(200) });
    expect([ok.status, ok.body.name]).toEqual([200, '😀'.repeat(200)]);
    const long = await as(h, ws).post('/api/users', { email: 'emoji2@example.com', name: '😀'.repeat(201) });
    expect([long.status, long.body.errors[0].pointer]).toEqual([422, '/body/name']);
  });

  it('flags a 422 whose field the document does not name, and one without errors', () => {
    const op = { ...operations.find((o) => o.operationId === 'createGeofence')!, description: 'Administrators only.', responseDescriptions: { 422: 'Validation failed' } };
    const problem = (errors?: { pointer: string; message: string }[]) => ({
      status: 422,
      contentType: 'application/problem+json',
      body: { type: 'urn:x', title: 't', status: 422, detail: 'd', code: 'validation', ...(errors ? { errors } : {}) },
      text: '',
    });
    expect(unexplainedRejections(op, problem([{ pointer: '/body/radius', message: 'must be greater than 0 metres' }]))).toEqual([
      '/body/radius must be greater than 0 metres',
    ]);
    expect(unexplainedRejections(op, problem())).toEqual(['a 422 without errors[] names no field']);
    const named = { ...op, description: 'A `radius` of 0 is 422.' };
    expect(unexplainedRejections(named, problem([{ pointer: '/body/radius', message: 'must be greater than 0 metres' }]))).toEqual([]);
    const quoted = { ...op, responseDescriptions: { 422: 'Text is refused: "must be well-formed Unicode text without NUL characters"' } };
    expect(unexplainedRejections(quoted, problem([{ pointer: '/body/tags/3', message: 'must be well-formed Unicode text without NUL characters' }]))).toEqual([]);
    expect(unexplainedRejections(op, { ...problem(), status: 404 })).toEqual([]);
  });
});
