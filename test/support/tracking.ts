import { expect } from 'vitest';
import { as, type Harness, type TestUser, type TestWorkspace } from './harness.js';

/** Short factories for projects, members and activities, through the API as a given user. */
export function tracking(h: Harness, ws: TestWorkspace) {
  const api = (user: TestUser = ws.admin) => as(h, ws, user);

  async function ok<T = any>(promise: Promise<{ status: number; body: any }>): Promise<T> {
    const res = await promise;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as T;
  }

  return {
    api,
    ok,
    /** A project created by the workspace's admin (or another admin). */
    project: (body: Record<string, unknown> = {}, admin: TestUser = ws.admin) =>
      ok(api(admin).post('/api/projects', { name: `Project ${Math.random().toString(36).slice(2)}`, ...body })),
    /** Makes a user a member of a project (as the workspace admin unless told). */
    member: (projectId: string, user: TestUser, body: Record<string, unknown> = {}, by: TestUser = ws.admin) =>
      ok(api(by).post(`/api/projects/${projectId}/members`, { userId: user.userId, ...body })),
    /** A closed activity of the user. */
    activity: (user: TestUser, body: Record<string, unknown> = {}) =>
      ok(
        api(user).post('/api/activities', {
          name: 'Work',
          startedAt: '2026-07-04T09:00:00Z',
          endedAt: '2026-07-04T10:00:00Z',
          ...body,
        }),
      ),
    /** A running timer of the user. */
    timer: (user: TestUser, startedAt: string, body: Record<string, unknown> = {}) =>
      ok(api(user).post('/api/activities', { name: 'Timer', startedAt, pending: true, ...body })),
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
