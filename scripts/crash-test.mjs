#!/usr/bin/env node
/*
 * `npm run crash-test`: crash durability of both stores.
 *
 * Starts the real server (`node bin/start.js`, what `npm start` runs) on one database, keeps many
 * concurrent writers busy over HTTP (activities, timesheet locks, and the assignment workflow:
 * project → assignment request → resolution), kills the server with SIGKILL at a random moment,
 * restarts it on the same database and carries on, cycle after cycle. Every write the server
 * acknowledged (a 2xx answer) is recorded. At the end it reads everything back through the API and
 * checks that every acknowledged write is present, that the workflow effects are consistent (every
 * RESOLVED assignment request's users are members, no PENDING or REJECTED request has its effect,
 * no membership exists without a RESOLVED request behind it) and, on SQLite, that the file passes
 * `PRAGMA integrity_check` and `PRAGMA foreign_key_check` right after the last kill.
 *
 *   npm run crash-test -- [--store sqlite|postgres|both] [--cycles N] [--seconds-per-cycle S]
 *                         [--concurrency C] [--database postgres://…] [--keep] [--json]
 *
 * PostgreSQL runs when `--database`, CRASH_DATABASE_URL or TEST_DATABASE_URL names a server; the
 * run gets a fresh schema `crash_<random>` (dropped after a clean run unless --keep). SQLite runs
 * on a temporary file. Exit status 1 on any lost write, failed check or error answer.
 *
 * The module also exports runCrashTest() for test/durability/crash.test.ts (the short CI version).
 */
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { freePort } from './free-port.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_EMAIL = 'crash-admin@example.com';
const USERS = 6;
const START_TIMEOUT_MS = 180_000; // bin/start.js may have to build dist/ first
const REQUEST_TIMEOUT_MS = 30_000;

/* ---------- processes ---------- */

/** The environment of every process of a run: the caller's, minus what would change behaviour. */
function childEnv(databaseUrl, extra = {}) {
  const env = { ...process.env };
  for (const name of ['REDIS_URL', 'SMTP_URL', 'PUBLIC_URL', 'NODE_ENV']) delete env[name];
  return {
    ...env,
    DATABASE_URL: databaseUrl,
    BASE_DOMAIN: 'localhost',
    LOG_LEVEL: 'warn',
    // The writers are one token from one address: the per-minute limits must not be what they measure.
    RATE_LIMIT_PER_ADDRESS: '1000000000',
    RATE_LIMIT_PER_TOKEN: '1000000000',
    ...extra,
  };
}

function runCli(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/timetrack.js'), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`timetrack ${args.join(' ')} exited ${code}:\n${stderr}`)),
    );
  });
}

/** `node bin/start.js` on a free port; resolves once /readyz answers 200. */
async function startServer(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/start.js')], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', BOOTSTRAP: 'false', SHUTDOWN_DRAIN_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exitCode;
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exitCode = code ?? signal;
      resolve(exitCode);
    }),
  );
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`the server exited (${exitCode}) while starting:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become ready in ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    try {
      const res = await send({ port, method: 'GET', path: '/readyz', headers: {}, timeoutMs: 2_000 });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  return { child, port, exited, output: () => output };
}

/* ---------- HTTP ---------- */

/** One request; resolves with {status, body} for any answer, rejects on a network failure (no answer). */
function send({ port, method, path: urlPath, headers, body, agent, timeoutMs = REQUEST_TIMEOUT_MS }) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        agent: agent ?? false,
        headers: {
          ...headers,
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            parsed = text;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('aborted', () => reject(new Error('response aborted')));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** An API client of one workspace and token on one server process. */
function client(port, domain, apiKey, agent) {
  const headers = { host: `${domain}.localhost`, authorization: `Bearer ${apiKey}` };
  return (method, urlPath, body) => send({ port, method, path: `/api${urlPath}`, headers, body, agent });
}

/** Reads retry: a keep-alive socket closed under a request is not an answer. */
async function read(api, urlPath) {
  let lastError;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const res = await api('GET', urlPath);
      if (res.status !== 200) throw new Error(`GET ${urlPath}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    } catch (error) {
      lastError = error;
      await sleep(100);
    }
  }
  throw lastError;
}

/* ---------- the writes ---------- */

const KINDS = ['activity', 'lock', 'project', 'request', 'resolution'];

/**
 * Every write sent is one record: {kind, key…, acked, id?}. `acked` is true only for a 2xx answer
 * carrying what the write returns; a failed connection (the kill) leaves it in doubt.
 */
class Ledger {
  constructor() {
    this.writes = [];
    this.errors = []; // HTTP answers that were not 2xx: the writers send only valid writes
  }

  async write(record, call) {
    this.writes.push(record);
    let res;
    try {
      res = await call();
    } catch {
      return undefined; // no answer: in doubt
    }
    if (res.status >= 200 && res.status < 300 && res.body && typeof res.body === 'object') {
      record.acked = true;
      record.answer = res.body;
      return res.body;
    }
    this.errors.push(`${record.kind} ${JSON.stringify(record.key)}: ${res.status} ${JSON.stringify(res.body)}`.slice(0, 500));
    return undefined;
  }
}

function isoMinutes(base, minutes) {
  return new Date(base + minutes * 60_000).toISOString();
}

/** The writers of one cycle: `concurrency` loops, each sending one write (or one workflow chain) at a time. */
function startWriters({ api, ledger, run, concurrency }) {
  const state = { stop: false };
  const writer = async () => {
    while (!state.stop) {
      const dice = Math.random();
      if (dice < 0.5) {
        const seq = run.seq++;
        const name = `crash ${run.id} activity ${seq}`;
        const startedAt = isoMinutes(run.base, seq);
        const endedAt = isoMinutes(run.base, seq + 30);
        await ledger.write({ kind: 'activity', key: name, startedAt, endedAt }, () =>
          api('POST', '/activities', { name, startedAt, endedAt, billable: seq % 2 === 0 }),
        );
      } else if (dice < 0.8) {
        // Each lock write is a user/week of its own, so the acknowledged answer is what must be read back.
        const seq = run.lockSeq++;
        const userId = run.users[seq % run.users.length];
        const slot = Math.floor(seq / run.users.length);
        const year = 1900 + Math.floor(slot / 52);
        const week = (slot % 52) + 1;
        const unlockedTo = seq % 3 === 0 ? isoMinutes(run.base, seq) : null;
        await ledger.write({ kind: 'lock', key: `${userId}/${year}/${week}`, unlockedTo }, () =>
          api('POST', '/timesheets/lock', { userId, year, week, ...(unlockedTo ? { unlockedTo } : {}) }),
        );
      } else {
        // The workflow: a project of its own, one assignment request for it, then its resolution.
        const seq = run.seq++;
        const name = `crash ${run.id} project ${seq}`;
        const project = await ledger.write({ kind: 'project', key: name }, () => api('POST', '/projects', { name }));
        if (!project || state.stop) continue;
        const userIds = run.users.filter(() => Math.random() < 0.5);
        if (userIds.length === 0) userIds.push(run.users[seq % run.users.length]);
        const request = await ledger.write({ kind: 'request', key: project.id, userIds }, () =>
          api('POST', `/requests/projects/${project.id}/members`, { userIds }),
        );
        if (!request || state.stop || Math.random() < 0.15) continue; // some stay PENDING on purpose
        const status = Math.random() < 0.8 ? 'RESOLVED' : 'REJECTED';
        await ledger.write({ kind: 'resolution', key: request.id, projectId: project.id, userIds, status }, () =>
          api('PUT', `/requests/${request.id}/projects/members`, { status }),
        );
      }
    }
  };
  const done = Promise.all(Array.from({ length: concurrency }, writer));
  return { stop: () => (state.stop = true), done };
}

/* ---------- the checks ---------- */

/** Everything the run wrote, as the API returns it now. */
async function snapshot(api, runId, adminUserId) {
  const prefix = `crash ${runId} `;
  const activities = Object.values(await read(api, '/activities')).filter((a) => a.name.startsWith(prefix));
  const locks = Object.values(await read(api, '/timesheets/locks'));
  const projects = Object.values(await read(api, '/projects')).filter((p) => p.name.startsWith(prefix));
  const requests = Object.values(await read(api, '/requests')).filter((r) => r.type === 'assignment');
  const members = new Map();
  const queue = [...projects];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let project = queue.shift(); project; project = queue.shift()) {
        const list = Object.values(await read(api, `/projects/${project.id}/members`));
        members.set(project.id, list.filter((m) => m.userId !== adminUserId));
      }
    }),
  );
  const by = (list, key) => new Map(list.map((item) => [key(item), item]));
  return {
    activities: by(activities, (a) => a.name),
    locks: by(locks, (l) => `${l.userId}/${l.year}/${l.week}`),
    projects: by(projects, (p) => p.name),
    projectIds: new Set(projects.map((p) => p.id)),
    requestsById: by(requests, (r) => r.id),
    requestsByProject: by(requests, (r) => r.projectId),
    members,
  };
}

const sameSet = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Is the write in the store? For an acknowledged one, also: is it what the server answered? */
function find(snap, write) {
  switch (write.kind) {
    case 'activity': {
      const found = snap.activities.get(write.key);
      if (!found) return false;
      if (!write.acked) return true;
      return found.id === write.answer.id && found.startedAt === write.startedAt && found.endedAt === write.endedAt;
    }
    case 'lock': {
      const found = snap.locks.get(write.key);
      if (!found) return false;
      if (!write.acked) return true;
      return found.id === write.answer.id && found.unlockedTo === write.unlockedTo;
    }
    case 'project': {
      const found = snap.projects.get(write.key);
      return Boolean(found) && (!write.acked || found.id === write.answer.id);
    }
    case 'request': {
      const found = snap.requestsByProject.get(write.key);
      if (!found) return false;
      return !write.acked || (found.id === write.answer.id && sameSet(found.userIds, write.userIds));
    }
    case 'resolution': {
      const found = snap.requestsById.get(write.key);
      if (!found || found.status !== write.status) return false;
      if (write.status === 'REJECTED') return true;
      const memberIds = new Set((snap.members.get(write.projectId) ?? []).map((m) => m.userId));
      return write.userIds.every((id) => memberIds.has(id));
    }
    default:
      throw new Error(`unknown kind ${write.kind}`);
  }
}

/** The workflow effects agree with the request states, write by write and as a whole. */
function workflowViolations(snap) {
  const violations = [];
  for (const request of snap.requestsById.values()) {
    if (!snap.projectIds.has(request.projectId)) continue; // not this run's
    const memberIds = new Set((snap.members.get(request.projectId) ?? []).map((m) => m.userId));
    const applied = request.userIds.filter((id) => memberIds.has(id));
    if (request.status === 'RESOLVED' && applied.length !== request.userIds.length) {
      violations.push(`RESOLVED request ${request.id}: users ${request.userIds.filter((id) => !memberIds.has(id))} are not members`);
    }
    if (request.status !== 'RESOLVED' && applied.length > 0) {
      violations.push(`${request.status} request ${request.id}: its effect is applied (members ${applied})`);
    }
    if ((request.status === 'PENDING') !== (request.resolvedAt == null) || (request.status === 'PENDING') !== (request.resolvedBy == null)) {
      violations.push(`${request.status} request ${request.id}: resolvedAt ${request.resolvedAt}, resolvedBy ${request.resolvedBy}`);
    }
  }
  // No membership without a RESOLVED request behind it: an effect never commits alone.
  for (const [projectId, members] of snap.members) {
    const request = snap.requestsByProject.get(projectId);
    const allowed = new Set(request?.status === 'RESOLVED' ? request.userIds : []);
    for (const member of members) {
      if (!allowed.has(member.userId)) violations.push(`project ${projectId}: member ${member.userId} without a RESOLVED request`);
    }
  }
  return violations;
}

/** SQLite: the file is whole and every reference points at a row. */
function sqliteIntegrity(file) {
  const db = new SqliteDatabase(file, { timeout: 10_000 });
  try {
    const integrity = db.pragma('integrity_check').map((row) => row.integrity_check);
    const foreignKeys = db.pragma('foreign_key_check');
    return { integrityCheck: integrity.join('; '), foreignKeyViolations: foreignKeys.length };
  } finally {
    db.close();
  }
}

/* ---------- one run ---------- */

function storeOf(databaseUrl) {
  return databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

/** A PostgreSQL URL with a fresh schema `crash_<epoch>_<hex>` (or the one the URL names). */
export function crashSchemaUrl(baseUrl) {
  const url = new URL(baseUrl);
  if (!url.searchParams.get('schema')) {
    url.searchParams.set('schema', `crash_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`);
  }
  return url.toString();
}

export function tempSqliteUrl() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-crash-'));
  return `sqlite:${path.join(dir, 'timetrack.db')}`;
}

/**
 * Runs the crash test on one database and returns its figures. `cycles` servers are each killed
 * with SIGKILL at a random moment between a quarter of `secondsPerCycle` and all of it, then one
 * more is started to read everything back and stopped with SIGTERM.
 * `beforeVerify({acknowledged})`, for the test that proves the checks can fail, runs after the last
 * kill, with the server down, before anything is read back.
 */
export async function runCrashTest({
  databaseUrl,
  cycles = 20,
  secondsPerCycle = 3,
  concurrency = 24,
  log = () => {},
  beforeVerify = async () => {},
}) {
  const store = storeOf(databaseUrl);
  const env = childEnv(databaseUrl);
  const run = { id: randomBytes(4).toString('hex'), seq: 0, lockSeq: 0, base: Date.UTC(2026, 0, 5), users: [] };
  const domain = `crash-${run.id}`;
  const ledger = new Ledger();
  const started = Date.now();

  // The workspace, made by the operator CLI (which also migrates the empty database).
  const created = JSON.parse(
    await runCli(['workspace', 'create', '--domain', domain, '--name', 'Crash test', '--admin-email', ADMIN_EMAIL], env),
  );
  const { apiKey, userId: adminUserId } = created;

  let integrityAfterKill;
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const server = await startServer(env);
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const api = client(server.port, domain, apiKey, agent);
    try {
      if (run.users.length === 0) {
        for (let i = 0; i < USERS; i++) {
          const res = await api('POST', '/users', { email: `crash-user-${i}@example.com`, name: `Crash user ${i}` });
          if (res.status !== 200) throw new Error(`could not invite a user: ${res.status} ${JSON.stringify(res.body)}`);
          run.users.push(res.body.id);
        }
      }
      const writers = startWriters({ api, ledger, run, concurrency });
      const lifetimeMs = Math.round(secondsPerCycle * 1000 * (0.25 + 0.75 * Math.random()));
      await sleep(lifetimeMs);
      writers.stop();
      server.child.kill('SIGKILL');
      await server.exited;
      await writers.done;
      const acked = ledger.writes.filter((w) => w.acked).length;
      log(`[${store}] cycle ${cycle}/${cycles}: killed after ${lifetimeMs} ms; ${ledger.writes.length} sent, ${acked} acknowledged so far`);
    } finally {
      agent.destroy();
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    }
    if (cycle === cycles && store === 'sqlite') {
      integrityAfterKill = sqliteIntegrity(databaseUrl.slice('sqlite:'.length));
    }
  }

  await beforeVerify({ acknowledged: ledger.writes.filter((w) => w.acked) });

  // Read everything back from a fresh server on the same database.
  const server = await startServer(env);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let snap;
  try {
    snap = await snapshot(client(server.port, domain, apiKey, agent), run.id, adminUserId);
  } finally {
    agent.destroy();
    server.child.kill('SIGTERM');
  }
  const shutdownCode = await server.exited;

  const byKind = Object.fromEntries(KINDS.map((kind) => [kind, { sent: 0, acknowledged: 0, present: 0, lost: 0, inDoubt: 0, inDoubtPresent: 0 }]));
  const lostWrites = [];
  for (const write of ledger.writes) {
    const row = byKind[write.kind];
    row.sent++;
    const present = find(snap, write);
    if (write.acked) {
      row.acknowledged++;
      if (present) row.present++;
      else {
        row.lost++;
        lostWrites.push(`${write.kind} ${JSON.stringify(write.key)} (answered ${JSON.stringify(write.answer)})`);
      }
    } else {
      row.inDoubt++;
      if (present) row.inDoubtPresent++;
    }
  }
  const total = { sent: 0, acknowledged: 0, present: 0, lost: 0, inDoubt: 0, inDoubtPresent: 0 };
  for (const row of Object.values(byKind)) for (const field of Object.keys(total)) total[field] += row[field];

  const workflow = workflowViolations(snap);
  const failures = [];
  if (total.lost > 0) failures.push(`${total.lost} acknowledged writes lost: ${lostWrites.slice(0, 5).join('; ')}`);
  if (ledger.errors.length > 0) failures.push(`${ledger.errors.length} error answers: ${ledger.errors.slice(0, 5).join('; ')}`);
  if (workflow.length > 0) failures.push(`${workflow.length} workflow inconsistencies: ${workflow.slice(0, 5).join('; ')}`);
  if (total.acknowledged === 0) failures.push('no write was acknowledged: the run proves nothing');
  if (shutdownCode !== 0) failures.push(`the verifying server exited ${shutdownCode} on SIGTERM`);
  let integrityAfterShutdown;
  if (store === 'sqlite') {
    integrityAfterShutdown = sqliteIntegrity(databaseUrl.slice('sqlite:'.length));
    for (const [when, result] of [['after the last kill', integrityAfterKill], ['after shutdown', integrityAfterShutdown]]) {
      if (result.integrityCheck !== 'ok') failures.push(`integrity_check ${when}: ${result.integrityCheck}`);
      if (result.foreignKeyViolations > 0) failures.push(`foreign_key_check ${when}: ${result.foreignKeyViolations} rows`);
    }
  }

  return {
    store,
    databaseUrl,
    cycles,
    seconds: Math.round((Date.now() - started) / 1000),
    ...total,
    errorAnswers: ledger.errors.length,
    byKind,
    workflow: {
      requests: [...snap.requestsById.values()].filter((r) => snap.projectIds.has(r.projectId)).length,
      violations: workflow.length,
    },
    ...(store === 'sqlite' ? { integrity: { afterLastKill: integrityAfterKill, afterShutdown: integrityAfterShutdown } } : {}),
    failures,
    ok: failures.length === 0,
  };
}

/* ---------- command line ---------- */

export function parseArgs(argv, env = process.env) {
  const options = {
    store: undefined,
    cycles: 20,
    secondsPerCycle: 3,
    concurrency: 24,
    database: env.CRASH_DATABASE_URL || undefined,
    keep: false,
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const number = (min) => {
      const v = Number(value());
      if (!Number.isFinite(v) || v < min) throw new Error(`${flag} must be a number ≥ ${min}`);
      return v;
    };
    switch (flag) {
      case '--store': {
        const v = value();
        if (!['sqlite', 'postgres', 'both'].includes(v)) throw new Error('--store must be sqlite, postgres or both');
        options.store = v;
        break;
      }
      case '--cycles':
        options.cycles = Math.floor(number(1));
        break;
      case '--seconds-per-cycle':
        options.secondsPerCycle = number(0.2);
        break;
      case '--concurrency':
        options.concurrency = Math.floor(number(1));
        break;
      case '--database':
        options.database = value();
        break;
      case '--keep':
        options.keep = true;
        break;
      case '--json':
        options.json = true;
        break;
      case '--help':
      case '-h':
        options.help = true;
        break;
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  if (options.database && !/^postgres(ql)?:\/\//.test(options.database)) {
    throw new Error('--database (or CRASH_DATABASE_URL) must be a postgres:// URL; SQLite always runs on a temporary file');
  }
  // Default: SQLite, plus PostgreSQL when a server was named.
  options.store ??= options.database ? 'both' : 'sqlite';
  if (options.store !== 'sqlite' && !options.database) options.database = env.TEST_DATABASE_URL || undefined;
  if (options.store !== 'sqlite' && !options.database) {
    throw new Error(`--store ${options.store} needs --database postgres://…, CRASH_DATABASE_URL or TEST_DATABASE_URL`);
  }
  return options;
}

const pad = (value, width) => String(value).padStart(width);

/** The figures, as a table a person reads. */
export function formatResults(results) {
  const lines = [];
  const header = ['store', 'kind', 'cycles', 'sent', 'acknowledged', 'present', 'lost', 'in doubt', 'in doubt, present'];
  const widths = header.map((h) => Math.max(h.length, 8));
  const row = (cells) => cells.map((cell, i) => (i < 2 ? String(cell).padEnd(widths[i]) : pad(cell, widths[i]))).join('  ');
  lines.push(row(header));
  lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const result of results) {
    if (!result.byKind) continue;
    for (const [kind, figures] of Object.entries(result.byKind)) {
      lines.push(row([result.store, kind, '', figures.sent, figures.acknowledged, figures.present, figures.lost, figures.inDoubt, figures.inDoubtPresent]));
    }
    lines.push(row([result.store, 'TOTAL', result.cycles, result.sent, result.acknowledged, result.present, result.lost, result.inDoubt, result.inDoubtPresent]));
    lines.push('');
  }
  for (const result of results) {
    if (!result.byKind) {
      lines.push(`${result.store}: FAILED`);
      for (const failure of result.failures) lines.push(`  FAILED: ${failure}`);
      continue;
    }
    const checks = [`error answers ${result.errorAnswers}`, `workflow: ${result.workflow.requests} assignment requests, ${result.workflow.violations} inconsistencies`];
    if (result.integrity) {
      const { afterLastKill: k, afterShutdown: s } = result.integrity;
      checks.push(`integrity_check after last kill: ${k.integrityCheck}, foreign_key_check: ${k.foreignKeyViolations} rows`);
      checks.push(`after shutdown: ${s.integrityCheck}, ${s.foreignKeyViolations} rows`);
    }
    lines.push(`${result.store}: ${checks.join('; ')}; ${result.seconds} s; ${result.ok ? 'OK' : 'FAILED'}`);
    for (const failure of result.failures) lines.push(`  FAILED: ${failure}`);
  }
  return lines.join('\n');
}

async function dropSchema(databaseUrl) {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  if (!schema) return;
  const pgClient = new pg.Client({ connectionString: url.toString() });
  await pgClient.connect();
  try {
    await pgClient.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await pgClient.end();
  }
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`crash-test: ${error.message}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(
      'npm run crash-test -- [--store sqlite|postgres|both] [--cycles N] [--seconds-per-cycle S] [--concurrency C]\n' +
        '                      [--database postgres://…] [--keep] [--json]\n',
    );
    return;
  }
  const log = (line) => process.stderr.write(`${line}\n`);
  const results = [];
  const plans = [];
  if (options.store !== 'postgres') plans.push({ databaseUrl: tempSqliteUrl(), fresh: true });
  if (options.store !== 'sqlite') {
    const databaseUrl = crashSchemaUrl(options.database);
    plans.push({ databaseUrl, fresh: databaseUrl !== options.database });
  }
  for (const plan of plans) {
    log(`crash-test on ${plan.databaseUrl}: ${options.cycles} cycles of up to ${options.secondsPerCycle} s, ${options.concurrency} writers`);
    let result;
    try {
      result = await runCrashTest({ ...options, databaseUrl: plan.databaseUrl, log });
    } catch (error) {
      // The run could not finish (a server that would not start, say): the other store still runs.
      log(`crash-test: ${error.stack ?? error}`);
      const message = String(error.message ?? error).split('\n')[0];
      result = { store: storeOf(plan.databaseUrl), databaseUrl: plan.databaseUrl, failures: [`the run stopped: ${message}`], ok: false };
    }
    results.push(result);
    // A clean run's store is thrown away; a failed one is kept for inspection.
    if (result.ok && !options.keep && plan.fresh) {
      if (result.store === 'sqlite') fs.rmSync(path.dirname(plan.databaseUrl.slice('sqlite:'.length)), { recursive: true, force: true });
      else await dropSchema(plan.databaseUrl);
    } else {
      log(`kept: ${plan.databaseUrl}`);
    }
  }
  process.stdout.write(options.json ? `${JSON.stringify(results, null, 2)}\n` : `\n${formatResults(results)}\n`);
  process.exitCode = results.every((r) => r.ok) ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    process.stderr.write(`crash-test: ${error.stack ?? error}\n`);
    process.exit(1);
  });
}
