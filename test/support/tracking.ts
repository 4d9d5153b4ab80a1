import { expect } from 'vitest';
import { make } from './factories/index.js';
import { as, ok, type Harness, type TestUser, type TestWorkspace } from './harness.js';
import { ActivitySchema } from './src.js';

/** The factories of projects, members and activities bound to one workspace, in the short forms the tracking suites use. */
export function tracking(h: Harness, ws: TestWorkspace) {
  return {
    api: (user: TestUser = ws.admin) => as(h, ws, user),
    ok,
    /** A project created by the workspace's admin (or another admin). */
    project: (body: Record<string, unknown> = {}, admin: TestUser = ws.admin) => make.project(h, ws, { ...body, by: admin }),
    /** Makes a user a member of a project (as the workspace admin unless told). */
    member: (projectId: string, user: TestUser, body: Record<string, unknown> = {}, by: TestUser = ws.admin) =>
      make.member(h, ws, { ...body, project: projectId, user, by }),
    /** A closed activity of the user. */
    activity: (user: TestUser, body: Record<string, unknown> = {}) => make.activity(h, ws, { ...body, owner: user }),
    /** A running timer of the user. */
    timer: (user: TestUser, startedAt: string, body: Record<string, unknown> = {}) => make.timer(h, ws, { ...body, owner: user, startedAt }),
  };
}

/**
 * Asserts that each operation is in the served OpenAPI document with its operationId, its request
 * body schema (when it takes one), its 200 schema and the problem responses it names.
 */
export async function expectDocumented(
  h: Harness,
  operations: [method: string, path: string, operationId: string, problems: number[]][],
): Promise<void> {
  const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
  for (const [method, path, operationId, problems] of operations) {
    const op = doc.paths[path]?.[method];
    const where = `${method.toUpperCase()} ${path}`;
    expect(op?.operationId, where).toBe(operationId);
    expect(op.responses['200'].content['application/json'].schema, where).toBeDefined();
    if (['post', 'put'].includes(method)) {
      expect(op.requestBody.content['application/json'].schema, where).toBeDefined();
    }
    for (const status of [401, 404, ...problems]) {
      expect(op.responses[String(status)]?.content['application/problem+json'].schema, `${where} ${status}`).toEqual({
        $ref: '#/components/schemas/Problem',
      });
    }
  }
}

/**
 * An activity as the API answers it: the given values, and null for every other field of the
 * Activity schema. A suite that asserts an answer's exact fields thus holds it to the served schema,
 * and a new nullable field (or list, empty when unset) needs no edit of the suites that never set it (docs/architecture.md "Add a field").
 */
export function activityAnswer(values: Record<string, unknown>): Record<string, unknown> {
  const unset = (property: object) => ('type' in property && property.type === 'array' ? [] : null);
  return { ...Object.fromEntries(Object.entries(ActivitySchema.properties).map(([key, property]) => [key, unset(property)])), ...values };
}
