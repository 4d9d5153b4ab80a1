import { CompiledQuery, sql, type SqlBool } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { readFeed } from '../changes/feed-support.js';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import {
  administersProject,
  fixedStatement,
  administersSomeProject,
  isProjectAdminRole,
  memberProjects,
  memberProjectsText,
  membershipConditionsText,
  membershipValues,
  PROJECT_ADMIN_ROLE,
  readableRows,
  readerScope,
  type ReadableScope,
} from '../support/src.js';

/**
 * The record-scope module (src/db/record-scopes.ts, docs/architecture.md "Record scopes"), scope by
 * scope, against a real store: the rows each scope reaches of a workspace where the reader is a
 * member, a project admin, a former member and a former project admin of one project each, beside
 * a peer who works on every project and a second workspace.
 */

const scopeOf = (userId: string, ...scopes: Array<'all' | 'own' | 'member' | 'administered'>): Extract<ReadableScope, { all: false }> => ({ all: false, userId, scopes });

interface World {
  ws: TestWorkspace;
  reader: TestUser;
  peer: TestUser;
  /** Once the project admin of `leftAdmin`, now archived there, and of no other project. */
  former: TestUser;
  projects: Record<'joined' | 'administered' | 'leftMember' | 'leftAdmin' | 'foreign', { id: string }>;
  /** Activity ids by `<owner>.<project or none>`. */
  activities: Map<string, string>;
  otherWs: TestWorkspace;
}

async function buildWorld(h: Harness): Promise<World> {
  const ws = await h.workspace();
  const [reader, peer, former] = [await h.user(ws), await h.user(ws), await h.user(ws)];
  const project = () => make.project(h, ws);
  const projects = { joined: await project(), administered: await project(), leftMember: await project(), leftAdmin: await project(), foreign: await project() };
  const activities = new Map<string, string>();
  const log = async (owner: TestUser, label: string, name: keyof typeof projects | 'none') => {
    const made = await make.activity(h, ws, { owner, ...(name === 'none' ? {} : { project: projects[name] }) });
    activities.set(`${label}.${name}`, made.id);
  };
  for (const name of Object.keys(projects) as Array<keyof typeof projects>) {
    await make.member(h, ws, { project: projects[name], user: peer });
    await log(peer, 'peer', name);
  }
  await log(peer, 'peer', 'none');
  await make.member(h, ws, { project: projects.joined, user: reader });
  await make.member(h, ws, { project: projects.administered, user: reader, role: 'Administrator' });
  // Work logged while a member, then the membership archived: still the reader's own, no longer their project's.
  const left = await make.member(h, ws, { project: projects.leftMember, user: reader });
  for (const name of ['none', 'joined', 'administered', 'leftMember'] as const) await log(reader, 'reader', name);
  await ok(as(h, ws).put(`/api/projects/${projects.leftMember.id}/members/${left.id}`, { archived: true }));
  await make.member(h, ws, { project: projects.leftAdmin, user: reader, role: 'Administrator', archived: true });
  await make.member(h, ws, { project: projects.leftAdmin, user: former, role: 'Administrator', archived: true });
  const otherWs = await h.workspace();
  await make.activity(h, otherWs);
  return { ws, reader, peer, former, projects, activities, otherWs };
}

describeEachStore('Record scopes: which rows a reader may read, on every scope (docs/architecture.md Record scopes)', (h) => {
  let world: World;
  beforeAll(async () => {
    world = await buildWorld(h);
  });

  /** The labels of the workspace's activities the condition keeps (table `a`). */
  async function reached(condition: ReturnType<typeof readableRows>): Promise<string[]> {
    const rows = await h.app.db
      .selectFrom('activities as a')
      .select('a.id')
      .where('a.organization_id', '=', world.ws.organizationId)
      .where(condition ?? sql<SqlBool>`1 = 1`)
      .execute();
    const labels = new Map([...world.activities].map(([label, id]) => [id, label]));
    return rows.map((row) => labels.get(row.id) ?? `admin:${row.id}`).sort();
  }
  const onActivities = (scope: ReadableScope) =>
    readableRows(scope, { organizationId: world.ws.organizationId, userColumn: 'a.user_id', projectColumn: 'a.project_id' });
  const own = ['reader.administered', 'reader.joined', 'reader.leftMember', 'reader.none'];
  const ofAdministered = ['peer.administered', 'reader.administered'];
  const ofJoined = ['peer.joined', 'reader.joined'];
  const union = (...sets: string[][]) => [...new Set(sets.flat())].sort();

  it("'all' adds no condition: the reader reads every row of the workspace, and only the statement's workspace keeps out the others", async () => {
    expect(onActivities({ all: true })).toBeNull();
    expect(await reached(onActivities({ all: true }))).toEqual([...world.activities.keys()].sort());
    expect(await reached(onActivities(scopeOf(world.reader.userId, 'all')))).toEqual([...world.activities.keys()].sort());
  });

  it("'own' reaches the rows whose user is the reader, on any project or none, nothing else", async () => {
    expect(await reached(onActivities(scopeOf(world.reader.userId, 'own')))).toEqual(own);
  });

  it("'member' reaches the rows of the projects the reader is an unarchived member of, in any project role, nothing else", async () => {
    expect(await reached(onActivities(scopeOf(world.reader.userId, 'member')))).toEqual(union(ofJoined, ofAdministered));
  });

  it("'administered' reaches the rows of the projects the reader administers (unarchived, project role Administrator), nothing else", async () => {
    expect(await reached(onActivities(scopeOf(world.reader.userId, 'administered')))).toEqual(ofAdministered);
    expect(await reached(onActivities(scopeOf(world.former.userId, 'administered')))).toEqual([]);
  });

  it('a member reads the rows of the projects they are a member of and their own, nothing else', async () => {
    expect(await reached(onActivities(scopeOf(world.reader.userId, 'own', 'member')))).toEqual(union(own, ofJoined, ofAdministered));
  });

  it("a User reads their own activities and those of the projects they administer (the policy's activities:read), nothing else", async () => {
    const scope = readerScope({ role: 'User', userId: world.reader.userId }, 'activities:read');
    expect(scope).toEqual(scopeOf(world.reader.userId, 'own', 'administered'));
    expect(await reached(onActivities(scope))).toEqual(union(own, ofAdministered));
  });

  it('no scope reaches no row', async () => {
    expect(await reached(onActivities(scopeOf(world.reader.userId)))).toEqual([]);
  });

  it("memberships count only in the workspace asked about: the reader's, asked about another workspace, reach nothing", async () => {
    const elsewhere = { organizationId: world.otherWs.organizationId, userColumn: 'a.user_id', projectColumn: 'a.project_id' };
    const rows = await h.app.db
      .selectFrom('activities as a')
      .select('a.id')
      .where(readableRows(scopeOf(world.reader.userId, 'member'), elsewhere))
      .execute();
    expect(rows).toEqual([]);
  });

  it('a scope that reaches rows by a column the table lacks is refused, not read as every row', () => {
    expect(() => readableRows(scopeOf(world.reader.userId, 'own'), { organizationId: world.ws.organizationId, projectColumn: 'project_id' })).toThrow(
      "The scope 'own' reaches rows by a column this table does not have",
    );
  });

  it('the text forms of the hot statements reach the same projects as the Kysely form, with either placeholder style', async () => {
    const { organizationId } = world.ws;
    const ids = (rows: Array<{ project_id: string }>) => rows.map((row) => row.project_id).sort();
    for (const administered of [true, false]) {
      const memberships = { organizationId, userId: world.reader.userId, administered };
      const expected = (administered ? [world.projects.administered] : [world.projects.joined, world.projects.administered]).map((p) => p.id).sort();
      const built = await sql<{ project_id: string }>`select p0.id as project_id from projects p0 where p0.id in ${memberProjects(memberships)}`.execute(h.app.db);
      expect(ids(built.rows)).toEqual(expected);
      const parameters: unknown[] = [];
      const bind = (value: unknown) => (parameters.push(value), h.store === 'postgres' ? `$${parameters.length}` : '?');
      const subquery = `select id as project_id from projects where id in ${memberProjectsText(memberships, bind)}`;
      expect(ids((await h.app.db.executeQuery<{ project_id: string }>(CompiledQuery.raw(subquery, parameters.splice(0)))).rows)).toEqual(expected);
      const joined = `select project_members.project_id from project_members where ${membershipConditionsText(memberships, bind)}`;
      expect(ids((await h.app.db.executeQuery<{ project_id: string }>(CompiledQuery.raw(joined, parameters.splice(0)))).rows)).toEqual(expected);
    }
  });

  it('a statement written once takes the conditions with `?` and, per call, membershipValues in their order', async () => {
    const { organizationId } = world.ws;
    for (const administered of [true, false]) {
      const shape = { organizationId: '', userId: '', administered };
      const statement = fixedStatement<{ project_id: string }>(
        `select project_members.project_id from project_members where ${membershipConditionsText(shape, () => '?')} and project_members.project_id != ?`,
      );
      const expected = (administered ? [world.projects.administered] : [world.projects.joined, world.projects.administered]).map((p) => p.id).sort();
      for (const [userId, reaches] of [[world.reader.userId, expected], [world.former.userId, []]] as const) {
        const values = [...membershipValues({ organizationId, userId, administered }), world.projects.foreign.id];
        expect((await statement(h.app.db, values)).map((row) => row.project_id).sort(), `${userId} ${administered}`).toEqual(reaches);
      }
      expect(await statement(h.app.db, [...membershipValues({ organizationId: world.otherWs.organizationId, userId: world.reader.userId, administered }), ''])).toEqual([]);
    }
  });

  it('a project admin is an unarchived member with project role Administrator, the very role the policy writes', async () => {
    const { organizationId } = world.ws;
    expect(isProjectAdminRole(PROJECT_ADMIN_ROLE)).toBe(true);
    expect(isProjectAdminRole('User')).toBe(false);
    expect(await administersSomeProject(h.app.db, organizationId, world.reader.userId)).toBe(true);
    expect(await administersSomeProject(h.app.db, organizationId, world.peer.userId)).toBe(false);
    expect(await administersSomeProject(h.app.db, organizationId, world.former.userId)).toBe(false);
    expect(await administersSomeProject(h.app.db, world.otherWs.organizationId, world.reader.userId)).toBe(false);
    const reader = { organizationId, userId: world.reader.userId };
    expect(await administersProject(h.app.db, reader, world.projects.administered.id)).toBe(true);
    for (const name of ['joined', 'leftAdmin', 'foreign'] as const) expect(await administersProject(h.app.db, reader, world.projects[name].id), name).toBe(false);
    expect(await administersProject(h.app.db, { ...reader, organizationId: world.otherWs.organizationId }, world.projects.administered.id)).toBe(false);
  });

  it('through the API, GET /activities, GET /activities/{id} and the change feed show a User the activities their scope reaches, nothing else', async () => {
    const { ws, reader } = world;
    const expected = union(own, ofAdministered).map((label) => world.activities.get(label)!).sort();
    const listed = await as(h, ws, reader).get('/api/activities');
    expect(listed.status, listed.text).toBe(200);
    expect(Object.keys(listed.body).sort()).toEqual(expected);
    const paged = await as(h, ws, reader).get('/api/activities', undefined, { query: { limit: '100' } });
    expect(Object.keys(paged.body).sort()).toEqual(expected);
    for (const id of world.activities.values()) {
      const one = await as(h, ws, reader).get(`/api/activities/${id}`);
      expect(one.status, id).toBe(expected.includes(id) ? 200 : 404);
    }
    const fed = (await readFeed(h, ws, reader)).events.filter((event) => event.type === 'activity.created').map((event) => event.data.id as string);
    expect(fed.sort()).toEqual(expected);
  });
});
