import type { FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type TestUser, type TestWorkspace } from '../support/harness.js';
import { buildApp } from '../support/src.js';

/*
 * docs/rules.md §1: no interleaving of a deletion with another write answers 5xx. The loser of a race
 * answers as if it had come second: 401 when its own user is gone, 404 workspace-not-found when its
 * workspace is, 404/409/422 as the route's rules say when the record it names is.
 *
 * "Another instance" is a second app on the same database (PostgreSQL); on SQLite, which one process
 * serves, it is the same app, and a deletion behind the identity cache's back is made in the database.
 */

const WEEK = { year: 2026, week: 27 };
const TIMER = { name: 'Timer', startedAt: '2026-07-04T09:00:00Z', pending: true };
const REPORT = { name: 'R', period: 'custom', start: '2026-07-01T00:00:00Z', end: '2026-08-01T00:00:00Z', dimensions: ['project'], metrics: ['time'] };
const RATE = { currency: 'EUR', from: '2026-01-01T00:00:00Z', to: null, taxRate: 0, value: 10 };

describeEachStore('Deletions racing other writes', (h) => {
  let other: FastifyInstance;

  beforeAll(async () => {
    other =
      h.store === 'postgres'
        ? await buildApp({ config: h.config, logStream: new Writable({ write: (_c, _e, done) => done() }) })
        : h.app;
  });
  afterAll(async () => {
    if (other !== h.app) await other?.close();
  });

  /** The same call as `as(h, ws, user)`, through the other instance. */
  const elsewhere = (ws: TestWorkspace, user: TestUser = ws.admin) => {
    const send = (method: string) => async (url: string, body?: unknown) => {
      const res = await other.inject({
        method: method as 'GET',
        url,
        headers: { host: ws.host, authorization: `Bearer ${user.token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.statusCode, body: res.body === '' ? undefined : JSON.parse(res.body) };
    };
    return { post: send('POST'), put: send('PUT'), delete: send('DELETE') };
  };

  /** Deletes a user on another instance: this one's identity cache still holds their token for up to a second. */
  const deleteUserElsewhere = async (ws: TestWorkspace, user: TestUser) => {
    if (other !== h.app) expect((await elsewhere(ws).delete(`/api/users/${user.userId}`)).status).toBe(200);
    else await h.app.db.deleteFrom('users').where('id', '=', user.userId).execute();
  };
  const deleteWorkspaceElsewhere = async (ws: TestWorkspace) => {
    if (other !== h.app) expect((await elsewhere(ws).delete('/api/organization')).status).toBe(200);
    else await h.app.db.deleteFrom('organizations').where('id', '=', ws.organizationId).execute();
  };

  /** Writes a user makes on this instance, each answered 401 once the user is gone. */
  const writesOfUser = (ws: TestWorkspace, user: TestUser) => [
    () => as(h, ws, user).post('/api/activities', TIMER),
    () => as(h, ws, user).post('/api/api-keys', { name: 'k' }),
    () => as(h, ws, user).post(`/api/requests/timesheets/${WEEK.year}/${WEEK.week}/unlock`),
    () => as(h, ws, user).post('/api/reports', REPORT),
  ];

  it('a write by a user deleted on another instance within the identity cache\'s second is 401, never a foreign-key 500', async () => {
    const ws = await h.workspace();
    for (let index = 0; index < 4; index++) {
      const user = await h.user(ws);
      expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
      await deleteUserElsewhere(ws, user);
      const res = await writesOfUser(ws, user)[index]();
      expect({ index, status: res.status, code: res.body?.code }).toEqual({ index, status: 401, code: 'unauthorized' });
    }
  });

  it('a write in a workspace deleted on another instance within the identity cache\'s second is 404 workspace-not-found', async () => {
    const writes = [
      (ws: TestWorkspace) => as(h, ws).post('/api/activities', TIMER),
      (ws: TestWorkspace) => as(h, ws).post('/api/projects', { name: 'P' }),
      (ws: TestWorkspace) => as(h, ws).post('/api/users', { email: `new-${Math.random()}@example.com` }),
    ];
    for (const [index, write] of writes.entries()) {
      const ws = await h.workspace();
      expect((await as(h, ws).get('/api/auth')).status).toBe(200);
      await deleteWorkspaceElsewhere(ws);
      const res = await write(ws);
      expect({ index, status: res.status, code: res.body?.code }).toEqual({ index, status: 404, code: 'workspace-not-found' });
    }
  });

  /** Runs both sides at once, `times` times (PostgreSQL), and collects `side:status` of every answer. */
  async function race(setUp: () => Promise<[() => Promise<{ status: number }>, () => Promise<{ status: number }>]>, times = 40) {
    const seen = new Set<string>();
    for (let round = 0; round < (h.store === 'postgres' ? times : 3); round++) {
      const [write, deletion] = await setUp();
      const [w, d] = await Promise.all([write(), deletion()]);
      seen.add(`write:${w.status}`);
      seen.add(`delete:${d.status}`);
    }
    return [...seen].sort();
  }
  const within = (seen: string[], allowed: string[]) => expect(seen.filter((s) => !allowed.includes(s))).toEqual([]);

  it('the writes of a user and the deletion of that user on another instance, at once: each write succeeds or is 401', async () => {
    const ws = await h.workspace();
    for (let index = 0; index < 4; index++) {
      const seen = await race(async () => {
        const user = await h.user(ws);
        await make.timer(h, ws, { owner: user, startedAt: '2026-07-03T09:00:00Z' });
        expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
        return [writesOfUser(ws, user)[index], () => elsewhere(ws).delete(`/api/users/${user.userId}`)];
      }, 15);
      within(seen, ['delete:200', 'write:200', 'write:401']);
    }
  });

  it('writes in a workspace and its deletion on another instance, at once: each write succeeds, or is 401 or 404', async () => {
    const writes = [
      (ws: TestWorkspace) => as(h, ws).post('/api/activities', TIMER),
      (ws: TestWorkspace) => as(h, ws).post('/api/projects', { name: 'P' }),
      (ws: TestWorkspace) => as(h, ws).post('/api/users', { email: `new-${Math.random()}@example.com` }),
    ];
    for (const write of writes) {
      const seen = await race(async () => {
        const ws = await h.workspace();
        expect((await as(h, ws).get('/api/auth')).status).toBe(200);
        return [() => write(ws), () => elsewhere(ws).delete('/api/organization')];
      });
      within(seen, ['delete:200', 'write:200', 'write:401', 'write:404']);
    }
  });

  it('a timesheet-unlock request resolved while its requester is deleted: the resolution succeeds or is 404', async () => {
    const ws = await h.workspace();
    const seen = await race(async () => {
      const user = await h.user(ws);
      const request = await make.request(h, ws, { kind: 'timesheetUnlock', by: user, ...WEEK });
      return [
        () => as(h, ws).put(`/api/requests/${request.id}/timesheets/unlock`, { status: 'RESOLVED' }),
        () => elsewhere(ws).delete(`/api/users/${user.userId}`),
      ];
    });
    within(seen, ['delete:200', 'write:200', 'write:404']);
  });

  it('a revenue rate created while its project is deleted: the creation succeeds or is 404', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const seen = await race(async () => {
      const project = await make.project(h, ws);
      const member = await make.member(h, ws, { project, user });
      return [
        () => as(h, ws).post(`/api/projects/${project.id}/members/${member.id}/rates/revenue`, RATE),
        () => elsewhere(ws).delete(`/api/projects/${project.id}`),
      ];
    });
    within(seen, ['delete:200', 'write:200', 'write:404']);
  });

  it('an activity booked on a project while the project is deleted: the booking succeeds or is 422 at /body/projectId', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const seen = await race(async () => {
      const project = await make.project(h, ws);
      await make.member(h, ws, { project, user });
      return [
        () => as(h, ws, user).post('/api/activities', { name: 'Booked', startedAt: '2026-07-04T09:00:00Z', endedAt: '2026-07-04T10:00:00Z', projectId: project.id }),
        () => elsewhere(ws).delete(`/api/projects/${project.id}`),
      ];
    });
    within(seen, ['delete:200', 'write:200', 'write:422']);
  });

  it('an activity moved onto a project while the project is deleted: the move succeeds or is 422 at /body/projectId', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const seen = await race(async () => {
      const [from, to] = [await make.project(h, ws), await make.project(h, ws)];
      await make.member(h, ws, { project: from, user });
      await make.member(h, ws, { project: to, user });
      const activity = await make.activity(h, ws, { owner: user, project: from });
      return [
        () => as(h, ws, user).put(`/api/activities/${activity.id}`, { projectId: to.id }),
        () => elsewhere(ws).delete(`/api/projects/${to.id}`),
      ];
    });
    within(seen, ['delete:200', 'write:200', 'write:422']);
  });
});
