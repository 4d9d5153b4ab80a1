// The stand-in: the least a server built the ordinary way needs to answer the bench's requests, to
// show what the service costs over it. Fastify with the service's own response schemas (so the same
// serializer), a bearer check (SHA-256 of the token looked up in a map), and one plain statement per
// request on the same database, prepared once: a primary-key read, an index-range read, one INSERT or
// one UPDATE. No tenancy, rate limits, visibility rules, validation or transactions of the service.
// SQLite runs at synchronous=NORMAL (a commit is not flushed: it survives the process, not a power
// loss). `log: 'info'` writes one access line per request as the service does at its default level;
// `log: 'off'` writes none.
//
// GET /plain/activities/:id answers a constant record (Fastify + schema + bearer, no database).
// Input: one JSON argument {url, identities: [{token, organizationId, userId}], log}; prints its port.
import crypto from 'node:crypto';
import process from 'node:process';
import Fastify from 'fastify';
import { Activity, ActivityMap } from '../dist/areas/activities/schemas.js';
import { batchedLogDestination } from '../dist/http/access-log.js';
import { Project, ProjectMap } from '../dist/areas/projects/schemas.js';
import { User, UserMap } from '../dist/areas/users/schemas.js';

const spec = JSON.parse(process.argv[2]);
const STATEMENTS = {
  findActivity: 'select * from activities where id = ? and organization_id = ?',
  listActivities: 'select * from activities where user_id = ? and organization_id = ? and started_at >= ? and started_at < ? order by started_at, id',
  insertActivity:
    'insert into activities (id, organization_id, user_id, project_id, name, billable, started_at, ended_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  updateActivity: 'update activities set name = ?, billable = ?, updated_at = ? where id = ? and organization_id = ? returning *',
  listProjects: 'select * from projects where organization_id = ? order by created_at, id',
  listUsers: 'select users.*, accounts.email from users join accounts on accounts.id = users.account_id where users.organization_id = ? order by users.created_at, users.id',
};

const identities = new Map(spec.identities.map((i) => [crypto.hash('sha256', i.token), i]));
const db = spec.url.startsWith('sqlite:') ? await sqliteStore(spec.url) : await postgresStore(spec.url);

// Logged to the service's own destination (batched, asynchronous).
const logs = spec.log === 'info' ? batchedLogDestination() : undefined;
const app = Fastify({
  logger: logs ? { level: 'info', stream: logs } : false,
  disableRequestLogging: true,
});
for (const schema of [Activity, Project, User]) app.addSchema(schema);
if (spec.log === 'info') {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ method: request.method, route: request.routeOptions.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 }, 'request');
    done();
  });
}
app.get('/readyz', () => ({ ok: true }));
app.addHook('onRequest', (request, reply, done) => {
  if (request.url === '/readyz') return done();
  const header = request.headers.authorization;
  const identity = header?.startsWith('Bearer ') ? identities.get(crypto.hash('sha256', header.slice(7))) : undefined;
  if (identity === undefined) {
    reply.code(401).send({ title: 'Unauthorized' });
    return;
  }
  request.identity = identity;
  done();
});

const toActivity = (row) => ({
  id: row.id,
  name: row.name,
  billable: Boolean(row.billable),
  startedAt: row.started_at,
  endedAt: row.ended_at,
  projectId: row.project_id,
  userId: row.user_id,
  taskId: row.task_id,
  tagIds: JSON.parse(row.tag_ids),
});
const byId = (records) => Object.fromEntries(records.map((r) => [r.id, r]));
const PLAIN = { id: '0190f5b2-6a3e-7c4d-8e9f-0a1b2c3d4e5f', name: 'Bench entry', billable: true, startedAt: '2026-07-04T09:00:00.000Z', endedAt: '2026-07-04T10:00:00.000Z', projectId: null, userId: '0190f5b2-6a3e-7c4d-8e9f-0a1b2c3d4e60', taskId: null, tagIds: [] };

app.get('/plain/activities/:id', { schema: { response: { 200: Activity } } }, () => PLAIN);

app.get('/api/activities/:id', { schema: { response: { 200: Activity } } }, async (request, reply) => {
  const row = await db.one('findActivity', [request.params.id, request.identity.organizationId]);
  if (row === undefined) return reply.code(404).send({ title: 'Not Found' });
  return toActivity(row);
});

app.get('/api/activities', { schema: { response: { 200: ActivityMap } } }, async (request) => {
  const { from, to, userId } = request.query;
  const rows = await db.all('listActivities', [userId ?? request.identity.userId, request.identity.organizationId, from, to]);
  return byId(rows.map(toActivity));
});

app.post('/api/activities', { schema: { response: { 200: Activity } } }, async (request) => {
  const { identity } = request;
  const body = request.body;
  const now = new Date().toISOString();
  const activity = { id: crypto.randomUUID(), name: body.name, billable: true, startedAt: new Date(body.startedAt).toISOString(), endedAt: new Date(body.endedAt).toISOString(), projectId: body.projectId ?? null, userId: identity.userId, taskId: null, tagIds: [] };
  await db.run('insertActivity', [activity.id, identity.organizationId, activity.userId, activity.projectId, activity.name, db.bool(true), activity.startedAt, activity.endedAt, now, now]);
  return activity;
});

app.put('/api/activities/:id', { schema: { response: { 200: Activity } } }, async (request, reply) => {
  const { name, billable } = request.body;
  const row = await db.one('updateActivity', [name, db.bool(billable), new Date().toISOString(), request.params.id, request.identity.organizationId]);
  if (row === undefined) return reply.code(404).send({ title: 'Not Found' });
  return toActivity(row);
});

app.get('/api/projects', { schema: { response: { 200: ProjectMap } } }, async (request) => {
  const rows = await db.all('listProjects', [request.identity.organizationId]);
  return byId(rows.map((row) => ({ id: row.id, name: row.name, archived: Boolean(row.archived), billable: Boolean(row.billable), avatar: row.avatar, ...(row.notes === null ? {} : { notes: row.notes }) })));
});

app.get('/api/users', { schema: { response: { 200: UserMap } } }, async (request) => {
  const rows = await db.all('listUsers', [request.identity.organizationId]);
  return byId(
    rows.map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role,
      archived: Boolean(row.archived),
      ...(row.name === null ? {} : { name: row.name }),
      avatar: row.avatar,
      phone: row.phone,
      title: row.title,
    })),
  );
});


async function sqliteStore(url) {
  const { default: Database } = await import('better-sqlite3');
  const connection = new Database(new URL(url.replace(/^sqlite:/, 'file:')).pathname);
  connection.pragma('busy_timeout = 5000');
  connection.pragma('synchronous = NORMAL');
  const prepared = Object.fromEntries(Object.entries(STATEMENTS).map(([name, text]) => [name, connection.prepare(text)]));
  return {
    bool: (value) => (value ? 1 : 0),
    one: async (name, params) => prepared[name].get(params),
    all: async (name, params) => prepared[name].all(params),
    run: async (name, params) => void prepared[name].run(params),
  };
}

async function postgresStore(url) {
  const { default: pg } = await import('pg');
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  const pool = new pg.Pool({ connectionString: parsed.toString(), max: 10, options: schema ? `-c search_path=${schema}` : undefined });
  // Named statements: each connection prepares a text once.
  const numbered = Object.fromEntries(
    Object.entries(STATEMENTS).map(([name, text]) => {
      let n = 0;
      return [name, text.replace(/\?/g, () => `$${++n}`)];
    }),
  );
  const query = (name, values) => pool.query({ name, text: numbered[name], values });
  return {
    bool: (value) => value,
    one: async (name, params) => (await query(name, params)).rows[0],
    all: async (name, params) => (await query(name, params)).rows,
    run: async (name, params) => void (await query(name, params)),
  };
}

app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' }).then(() => {
  process.stdout.write(`listening ${app.server.address().port}\n`);
});
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
