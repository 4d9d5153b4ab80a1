// `npm run bench [-- --quick] [-- --store sqlite|postgres] [-- --only case,case] [-- --json file] [-- --compare REF]`
//
// Builds dist/ when stale, then for SQLite (and PostgreSQL when BENCH_DATABASE_URL is set): seeds a
// fresh database in bulk, starts the real server as `npm start` does (its default log level
// included) pinned to core 0, and drives it with wrk from core 1. First the limits of the run: the
// bare node:http ceiling, what wrk reaches against a raw socket (the ceiling counts only when it is
// well below that), the stand-ins (bench/stand-in.mjs) and the service at two log levels. Then every
// case in rounds with the ceiling answering the same size and the stand-in answering the same
// request, so that machine drift cancels out in the per-round ratios. Prints one table per store.
// With --compare REF, the other side of each pair is the server as built from git revision REF
// instead, each on a database of its own build's schema holding a copy of the seeded data (bench/build-store.mjs).
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { setInterval, clearInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../bin/ensure-built.js';
import { ensureWrk, wrkSlice } from './wrk.mjs';
import { freePort } from '../scripts/free-port.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const QUICK = flag('quick');
const ONLY = option('only')?.split(',');
const STORES = option('store')?.split(',') ?? ['sqlite', 'postgres'];
const JSON_OUT = option('json');
/** --sqlite-synchronous normal: SQLite with `?synchronous=normal` (the default is FULL: a commit is on disk when acknowledged). */
const SQLITE_SYNCHRONOUS = option('sqlite-synchronous');
/** --profile DIR: the servers and the stand-ins write V8 CPU profiles there when they stop (for finding hot paths; a file's name holds its process id). */
const PROFILE = option('profile');
const profiling = () => (PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE)}`] : []);
/** --compare REF: each case against the server of git revision REF (built in a temporary worktree) instead of the ceiling. */
const COMPARE = option('compare');
/** --keep FILE: leaves the seeded PostgreSQL schema in place and writes its URL and fixture to FILE (for profiling a case by hand). */
const KEEP = option('keep');

const PLAN = QUICK
  ? { main: 100_000, scale: [10_000], pairs: 1, limitPairs: 1, seconds: 1, warmup: 1, firstWarmup: 3, connections: 10 }
  : { main: 1_000_000, scale: [10_000, 100_000], pairs: 4, limitPairs: 12, seconds: 3, warmup: 1, firstWarmup: 6, connections: 10 };

// --pairs N, --seconds N: more or longer rounds than the plan's (for a closer look at a few cases).
if (option('pairs')) PLAN.pairs = PLAN.limitPairs = Number(option('pairs'));
if (option('seconds')) PLAN.seconds = Number(option('seconds'));

const log = (line) => process.stderr.write(`${line}\n`);

// Pinning: the server (and the ceiling) on core 0, the load generator on core 1.
const CORES = os.cpus().length;
const canPin = CORES >= 2 && hasTaskset();
const pinned = (core, command) => (canPin ? ['taskset', ['-c', String(core), ...command]] : [command[0], command.slice(1)]);

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** One HTTP exchange, the whole answer read. */
function fetchOnce(port, { method = 'GET', path: urlPath, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

async function waitForHttp(port, urlPath, child) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      const res = await fetchOnce(port, { path: urlPath });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nothing answered on port ${port}`);
    await sleep(100);
  }
}

/** Where the processes' standard output goes: a file, as an operator's log would (read back only on a failure). */
const OUTPUT_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-bench-logs-'));
process.on('exit', () => fs.rmSync(OUTPUT_DIR, { recursive: true, force: true }));
let outputs = 0;

async function startProcess(core, command, env, readyPath, port, cwd = ROOT) {
  const [file, argv] = pinned(core, command);
  const outputFile = path.join(OUTPUT_DIR, `${++outputs}.log`);
  const stdout = fs.openSync(outputFile, 'w');
  const child = spawn(file, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'pipe'] });
  fs.closeSync(stdout);
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  const output = () => `${fs.readFileSync(outputFile, 'utf8').slice(-4000)}${errors}`;
  try {
    await waitForHttp(port, readyPath, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${command.join(' ')}: ${error.message}\n${output()}`);
  }
  return { child, pid: child.pid, output };
}

async function stopProcess(proc) {
  if (proc.child.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.child.on('exit', resolve));
  proc.child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
}

/** Runs a script of bench/ in a process of its own pinned to `core`: the JSON line it prints. */
function runPinned(core, script, argument) {
  const [file, argv] = pinned(core, [process.execPath, path.join(ROOT, 'bench', script), argument]);
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`${script} exited with ${code}`))));
  });
}

/** One wrk slice on core 1; the target's CPU time is read around it. */
async function slice(target, request, seconds) {
  const cpuBefore = cpuSeconds(target.pid);
  const out = await wrkSlice((command) => pinned(1, command), target.port, { ...request, connections: PLAN.connections, seconds });
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  if (out.non2xx > 0 || out.errors > 0) {
    throw new Error(`${request.label}: ${out.non2xx} answers of 400 or more and ${out.errors} socket errors in a slice`);
  }
  return { ...out, cpuPerRequest: out.requests > 0 ? cpu / out.requests : NaN };
}

const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The request the bare ceiling answers for a case: the case's method, headers and bodies, an answer of `bytes`. */
const ceilingRequestOf = (request, bytes) => ({ ...request, paths: [`/${bytes}`], headers: { ...request.headers, host: '127.0.0.1' } });

const warmed = new WeakSet();

/**
 * Slices against each side in turn, `pairs` rounds (the plan's unless given), the order reversed every other round so that
 * drift of the machine cancels out. Per side: medians of its slices, and `ratio`, the median of its
 * req/s over the first side's in the same round (`ratios`, one per round).
 */
async function rounds(sides, pairs = PLAN.pairs) {
  // A server's first load runs cold (its code not yet optimized) for seconds: it gets a longer warm-up.
  for (const side of sides) {
    const first = !warmed.has(side.target);
    warmed.add(side.target);
    await slice(side.target, side.request, first ? PLAN.firstWarmup : PLAN.warmup);
  }
  const slices = sides.map(() => []);
  for (let i = 0; i < pairs; i++) {
    const order = sides.map((_, k) => (i % 2 === 0 ? k : sides.length - 1 - k));
    for (const k of order) slices[k].push(await slice(sides[k].target, sides[k].request, PLAN.seconds));
  }
  return slices.map((own) => {
    const ratios = own.map((s, i) => s.rps / slices[0][i].rps);
    return {
      rps: median(own.map((s) => s.rps)),
      p50: median(own.map((s) => s.p50)),
      p99: median(own.map((s) => s.p99)),
      cpuUs: median(own.map((s) => s.cpuPerRequest)) * 1e6,
      cpuRatio: median(own.map((s, i) => s.cpuPerRequest / slices[0][i].cpuPerRequest)),
      cpuRatios: own.map((s, i) => s.cpuPerRequest / slices[0][i].cpuPerRequest),
      ratio: median(ratios),
      ratios,
      slices: own,
    };
  });
}

/**
 * A case against the service, in rounds with the ceiling answering the same size and, when given, the
 * stand-in answering the same request and `others` (more servers answering the same request, each
 * {label, target}). `ratio` is a server's share of the ceiling, `standInRatio` its share of the
 * stand-in's req/s in the same rounds. Resolves to the service's figures, with `others` as rows of
 * their own that also carry `serviceOver` (the service's req/s over theirs).
 */
async function measure(server, ceiling, request, bytes, { standIn, others = [] } = {}) {
  // Against a reference server, its side of a pair is the very same request.
  const ceilingRequest = COMPARE ? request : ceilingRequestOf(request, bytes);
  const sides = [{ target: ceiling, request: ceilingRequest }, { target: server, request }];
  if (standIn) sides.push({ target: standIn, request });
  for (const other of others) sides.push({ target: other.target, request });
  const [top, own, stand, ...rest] = await rounds(sides);
  const figures = (m) => ({
    ...m,
    ceilingRps: top.rps,
    ceilingCpuUs: top.cpuUs,
    ...(stand ? { standInRps: stand.rps, standInCpuUs: stand.cpuUs, standInRatio: perRound(m, stand) } : {}),
  });
  const service = figures(own);
  service.others = rest.map((m, k) => ({ label: others[k].label, ...figures(m), serviceOver: perRound(own, m) }));
  return service;
}

/** A first exchange that must succeed: it proves the case and gives the answer's size. */
async function probe(server, request) {
  const res = await fetchOnce(server.port, {
    method: request.method,
    path: request.paths[0],
    headers: request.headers,
    body: request.bodies?.[0],
  });
  if (res.status !== 200) throw new Error(`${request.label}: ${res.status} ${res.body.toString().slice(0, 300)}`);
  const parsed = JSON.parse(res.body.toString());
  const entries = request.list ? Object.keys(parsed).length : 1;
  return { bytes: res.body.length, entries };
}

function casesOf(fixture) {
  const host = `${fixture.domain}.localhost`;
  const as = (token, extra = {}) => ({ host, authorization: `Bearer ${token}`, ...extra });
  const json = { 'content-type': 'application/json' };
  const { reader, writer, admin, windows } = fixture;
  const period = (w, userId) =>
    `/api/activities?from=${encodeURIComponent(w.from)}&to=${encodeURIComponent(w.to)}${userId ? `&userId=${userId}` : ''}`;
  const day = Date.now() - 20 * 3_600_000;
  const posts = Array.from({ length: 500 }, (_, i) => {
    const startedAt = new Date(day + i * 60_000).toISOString();
    const endedAt = new Date(day + i * 60_000 + 45_000).toISOString();
    return JSON.stringify({ name: `Bench entry ${i}`, startedAt, endedAt, projectId: writer.projectId });
  });
  const cases = [
    { id: 'get-one', label: 'GET /activities/{id} (API key)', method: 'GET', headers: as(reader.token), paths: reader.activityIds.map((id) => `/api/activities/${id}`) },
    { id: 'post', label: 'POST /activities (closed entry)', method: 'POST', headers: as(writer.token, json), paths: ['/api/activities'], bodies: posts },
    {
      id: 'put',
      label: 'PUT /activities/{id}',
      method: 'PUT',
      headers: as(writer.token, json),
      paths: writer.activityIds.map((id) => `/api/activities/${id}`),
      bodies: [JSON.stringify({ name: 'Edited entry A', billable: true }), JSON.stringify({ name: 'Edited entry B', billable: false })],
    },
    { id: 'list-100-user', label: `GET /activities?from&to, ~100 (user)`, method: 'GET', headers: as(reader.token), paths: [period(windows.small)], list: true },
    { id: 'list-100-admin', label: `GET /activities?from&to, ~100 (admin)`, method: 'GET', headers: as(admin.token), paths: [period(windows.small, reader.id)], list: true },
    { id: 'list-1000-user', label: `GET /activities?from&to, ~1000 (user)`, method: 'GET', headers: as(reader.token), paths: [period(windows.large)], list: true },
    { id: 'list-1000-admin', label: `GET /activities?from&to, ~1000 (admin)`, method: 'GET', headers: as(admin.token), paths: [period(windows.large, reader.id)], list: true },
    { id: 'projects', label: 'GET /projects (200, admin)', method: 'GET', headers: as(admin.token), paths: ['/api/projects'], list: true },
    { id: 'users', label: 'GET /users (50)', method: 'GET', headers: as(reader.token), paths: ['/api/users'], list: true },
  ];
  return cases;
}

/**
 * The metrics' cost on GET /activities/{id}: the same build with METRICS_PORT set (its listener
 * scraped every second, as a Prometheus with a short interval would) and without, in the same rounds.
 * `cost`: 1 − the median per-round req/s with metrics over without.
 */
async function metricsCase(server, ceiling, standIn, request, startServer) {
  const metricsPort = await freePort();
  const withMetrics = await startServer({ metricsPort });
  const scraper = setInterval(() => {
    fetchOnce(metricsPort, { path: '/metrics' }).catch(() => undefined);
  }, 1_000);
  try {
    const shape = await probe(withMetrics, request);
    const m = await measure(server, ceiling, request, shape.bytes, { standIn, others: [{ label: `${request.label}, METRICS_PORT`, target: withMetrics }] });
    const on = m.others[0];
    const ratios = on.slices.map((x, i) => x.rps / m.slices[i].rps);
    return { off: { rps: m.rps, cpuUs: m.cpuUs }, on: { rps: on.rps, cpuUs: on.cpuUs }, cost: 1 - median(ratios), range: [1 - Math.max(...ratios), 1 - Math.min(...ratios)] };
  } finally {
    clearInterval(scraper);
    await stopProcess(withMetrics);
  }
}

/** Peak RSS of the server while it answers one user's whole history (an unfiltered GET /activities). */
async function memoryCase(server, fixture) {
  const host = `${fixture.domain}.localhost`;
  const before = memoryOf(server.pid);
  try {
    fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  } catch {
    // Not allowed here: VmHWM is then the process's lifetime peak (the sampled RSS bounds it from beneath).
  }
  let sampled = before.rss;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, memoryOf(server.pid).rss);
  }, 2);
  const times = [];
  let result;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    result = await fetchOnce(server.port, { path: '/api/activities', headers: { host, authorization: `Bearer ${fixture.heavy.token}` } });
    times.push(performance.now() - started);
    if (result.status !== 200) throw new Error(`memory case: ${result.status}`);
  }
  clearInterval(timer);
  const after = memoryOf(server.pid);
  const entries = Object.keys(JSON.parse(result.body.toString())).length;
  return { entries, bytes: result.body.length, baseline: before.rss, peak: Math.max(after.peak, sampled), ms: median(times) };
}

/** How far below the generator's reach the ceiling must stay for the ratios to be reported. */
const NOISE = 0.1;

/** a's req/s over b's in each round (two sides measured in the same rounds). */
const roundRatios = (a, b) => a.slices.map((x, i) => x.rps / b.slices[i].rps);
/** The median over rounds of a's req/s over b's. */
const perRound = (a, b) => median(roundRatios(a, b));
/** The lowest and highest of a's req/s over b's in one round: how far the machine moved them. */
const roundRange = (a, b) => {
  const ratios = roundRatios(a, b);
  return [Math.min(...ratios), Math.max(...ratios)];
};

/**
 * What bounds this run's figures, in the same rounds, all with GET /activities/{id}'s requests: the
 * bare node:http ceiling, the generator's reach (a raw socket server), the stand-in without a
 * database, with its primary-key read (without logging and with the service's access line), and the
 * service at LOG_LEVEL=warn and at its default. `validated`: the ceiling stayed below the reach by
 * more than NOISE, so what limited the ceiling was the bare server, not the generator.
 */
async function limitsCase({ store, server, ceiling, standIn, fixture, startHelper, startStandIn, startServer }) {
  const request = casesOf(fixture).find((c) => c.id === 'get-one');
  const shape = await probe(server, request);
  const bare = ceilingRequestOf(request, shape.bytes);
  const started = [];
  const start = async (starting) => {
    const proc = await starting;
    started.push(proc);
    return proc;
  };
  try {
    const reach = await start(startHelper('raw-socket.mjs'));
    const quiet = await start(startStandIn('off'));
    const warn = await start(startServer({ logLevel: 'warn' }));
    const rows = [
      { id: 'ceiling', label: 'bare node:http, pre-serialized answer', target: ceiling, request: bare },
      { id: 'reach', label: 'raw socket, canned answer (generator\'s reach)', target: reach, request: bare },
      { id: 'plain', label: 'Fastify + response schema + bearer', target: quiet, request: { ...request, paths: request.paths.map((p) => p.replace('/api/', '/plain/')) } },
      { id: 'read', label: `+ ${store} primary-key read`, target: quiet, request },
      { id: 'read-info', label: `+ ${store} primary-key read, access line (info)`, target: standIn, request },
      { id: 'warn', label: 'timetrack GET /activities/{id}, LOG_LEVEL=warn', target: warn, request },
      { id: 'service', label: 'timetrack GET /activities/{id}, default (info)', target: server, request },
    ];
    // The limits' shares decide targets: more rounds than a case gets, as the VM moves one round's share by ±10 %.
    const measured = await rounds(rows, PLAN.limitPairs);
    const out = Object.fromEntries(rows.map((row, k) => [row.id, { label: row.label, ...measured[k] }]));
    return {
      rows: Object.values(out),
      bytes: shape.bytes,
      validated: out.ceiling.rps < out.reach.rps * (1 - NOISE),
      logCost: 1 - perRound(out.service, out.warn),
      logCostRange: roundRange(out.service, out.warn).map((ratio) => 1 - ratio).reverse(),
      overStandIn: perRound(out.service, out.read),
      overStandInRange: roundRange(out.service, out.read),
      pairs: PLAN.limitPairs,
    };
  } finally {
    for (const proc of started) await stopProcess(proc);
  }
}

/**
 * The flood: one user runs 12 unfiltered GET /activities of their whole history in
 * parallel, over and over, while another workspace's admin reads GET /organization one request after
 * another. Prints that workspace's p90 during the flood beside its idle p90 (goal: within 5×), and how
 * many listings the per-token and per-workspace bounds answered 429.
 */
async function floodCase(server, fixture, other, seconds) {
  const idle = await timedReads(server, other, performance.now() + seconds * 1000);
  const until = performance.now() + seconds * 1000;
  const statuses = { 200: 0, 429: 0, other: 0 };
  const listing = { path: '/api/activities', headers: { host: `${fixture.domain}.localhost`, authorization: `Bearer ${fixture.heavy.token}` } };
  const [flooded] = await Promise.all([timedReads(server, other, until), ...Array.from({ length: 12 }, () => flooder(server, listing, until, statuses))]);
  return { idleP90: p90(idle), floodP90: p90(flooded), requests: flooded.length, statuses, entries: fixture.heavy.entries };
}

const longest = (values) => values.reduce((max, value) => Math.max(max, value), 0);
const p90 = (values) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))];

/** Another workspace's admin reading GET /organization one request after another until `until`: each request's milliseconds. */
async function timedReads(server, other, until) {
  const organization = { path: '/api/organization', headers: { host: `${other.domain}.localhost`, authorization: `Bearer ${other.admin.token}` } };
  const times = [];
  while (performance.now() < until) {
    const started = performance.now();
    const res = await fetchOnce(server.port, organization);
    if (res.status !== 200) throw new Error(`flood case: GET /organization ${res.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

/** One caller sending `request` again and again until `until`, waiting out each 429's Retry-After; counts the answers. */
async function flooder(server, request, until, statuses) {
  while (performance.now() < until) {
    const res = await fetchCounted(server.port, request);
    if (res.status === 200 || res.status === 429) statuses[res.status]++;
    else statuses.other++;
    if (res.status === 429) await sleep(Number(res.headers?.['retry-after'] ?? 1) * 1000);
  }
}

/**
 * A detailed CSV of the heavy user's whole history whose client takes the first bytes and then reads
 * nothing (a paused download): resolves once it is paused, with a function that ends it.
 */
function pausedExport(server, fixture) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ period: 'custom', ...fixture.reportPeriods.all, dimensions: ['project'], metrics: ['time'] });
    const headers = { host: `${fixture.domain}.localhost`, authorization: `Bearer ${fixture.heavy.token}`, 'content-type': 'application/json' };
    const req = http.request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/api/reports/entries?format=csv&timeZone=UTC', headers, agent: false }, (res) => {
      res.once('data', () => {
        res.pause();
        resolve({ status: res.statusCode, end: () => req.destroy() });
      });
      res.on('error', () => {});
    });
    req.on('error', (error) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.end(body);
  });
}

/**
 * The report flood (issue 38): in one workspace, 6 callers of its admin run again and again the
 * largest filled summary the API accepts (every project × every day, hideEmptyRows false: about
 * 100,000 rows, as JSON and as PDF) and a project × user summary of every entry, while 2 detailed CSV
 * exports of its heavy user's whole history stay paused (their clients read the first piece and
 * stop). Meanwhile another workspace's admin reads GET /organization one request after another:
 * its p90 and its longest request beside idle (goals: longest under 250 ms, p90 within 5× idle).
 */
async function reportFloodCase(server, fixture, other, seconds) {
  const headers = { host: `${fixture.domain}.localhost`, authorization: `Bearer ${fixture.admin.token}`, 'content-type': 'application/json' };
  const start = Date.parse(fixture.reportPeriods.year.start);
  // Each project and the row of no project, with a row a day under each.
  const filledDays = Math.floor(100_000 / (fixture.projects + 1)) - 2;
  const filled = JSON.stringify({
    period: 'custom',
    start: new Date(start).toISOString(),
    end: new Date(start + filledDays * 86_400_000).toISOString(),
    dimensions: ['project', 'day'],
    metrics: ['time', 'billableTime'],
    hideEmptyRows: false,
  });
  const everything = reportBody(fixture.reportPeriods.all);
  const runs = [
    { method: 'POST', path: '/api/reports/run?timeZone=UTC', headers, body: filled },
    { method: 'POST', path: '/api/reports/run?timeZone=UTC&format=pdf', headers, body: filled },
    { method: 'POST', path: '/api/reports/run?timeZone=UTC', headers, body: everything },
  ];
  const probed = await fetchCounted(server.port, runs[0]);
  if (probed.status !== 200) throw new Error(`report flood: the filled summary answered ${probed.status} ${probed.head}`);
  const idle = await timedReads(server, other, performance.now() + seconds * 1000);
  const paused = await Promise.all([pausedExport(server, fixture), pausedExport(server, fixture)]);
  if (paused.some((p) => p.status !== 200)) throw new Error(`report flood: paused exports answered ${paused.map((p) => p.status).join(', ')}`);
  const statuses = { 200: 0, 429: 0, other: 0 };
  const until = performance.now() + seconds * 1000;
  try {
    const [flooded] = await Promise.all([timedReads(server, other, until), ...Array.from({ length: 6 }, (_, i) => flooder(server, runs[i % runs.length], until, statuses))]);
    return { idleP90: p90(idle), idleMax: longest(idle), floodP90: p90(flooded), floodMax: longest(flooded), requests: flooded.length, statuses, filledBytes: probed.bytes, filledDays, projects: fixture.projects, entries: fixture.activities };
  } finally {
    for (const p of paused) p.end();
  }
}

/**
 * Runs `measure` with the PostgreSQL server's processes kept off the service's core (the database on
 * cores of its own, as on a machine of its own): the report flood weighs what the service does beside
 * the summaries, not the database's processes taking the service's core. Restored after; on SQLite,
 * or where the processes cannot be pinned, `measure` runs as it is.
 */
async function besideServerCore(store, measure) {
  const postmaster = store === 'postgres' && canPin ? await postmasterPid() : undefined;
  const pin = (cores) => {
    for (const pid of [postmaster, ...execFileSync('pgrep', ['-P', postmaster], { encoding: 'utf8' }).split(/\s+/).filter(Boolean)]) {
      execFileSync('taskset', ['-a', '-p', '-c', cores, pid], { stdio: 'ignore' });
    }
  };
  if (postmaster === undefined) return measure();
  try {
    pin(`1-${CORES - 1}`);
  } catch (error) {
    log(`  could not keep PostgreSQL off the server's core (${error.message}): measured as it is`);
    return measure();
  }
  try {
    return await measure();
  } finally {
    pin(`0-${CORES - 1}`);
  }
}

/** The PostgreSQL server's process id (the first line of postmaster.pid in its data directory), undefined when unreadable. */
async function postmasterPid() {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query('show data_directory');
    return fs.readFileSync(path.join(rows[0].data_directory, 'postmaster.pid'), 'utf8').split('\n')[0].trim();
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

/**
 * Password sign-in, on a server whose per-address bound on password checks is out of the way: what
 * one costs (time and server CPU) beside a password check alone (the service's own hashing module
 * and parameters, in a process on the server's core), and another workspace's reads measured by
 * wrk idle and under a steady 5 sign-ins a second. Then `signInFlood`.
 */
async function signInCase(server, fixture, other) {
  const signIns = QUICK ? 10 : 30;
  const hash = await runPinned(0, 'hash-cost.mjs', String(signIns));
  // Warm: the routes' first run compiles, and the first check of a process hashes its stand-in digest too.
  for (let i = 0; i < 5; i++) await signInOnce(server, fixture);
  const times = [];
  const cpuBefore = cpuSeconds(server.pid);
  for (let i = 0; i < signIns; i++) {
    const started = performance.now();
    const status = await signInOnce(server, fixture);
    if (status !== 200) throw new Error(`sign-in case: POST /auth/sign-in ${status}`);
    times.push(performance.now() - started);
  }
  const cpuMs = ((cpuSeconds(server.pid) - cpuBefore) / signIns) * 1000;
  await slice(server, readsOf(other), PLAN.seconds * 2);
  const idle = await readsWhile(server, other, () => []);
  const atFive = await readsWhile(server, other, (until, statuses) => [
    (async () => {
      while (!until.done) {
        const next = performance.now() + 200;
        statuses.push(await signInOnce(server, fixture));
        await sleep(Math.max(0, next - performance.now()));
      }
    })(),
  ]);
  if (atFive.statuses.some((status) => status !== 200)) throw new Error(`sign-in case: answers ${atFive.statuses.join(', ')} at 5 a second`);
  return { hashMs: median(hash.times), hashCpuMs: hash.cpuMs, signInMs: median(times), cpuMs, idle, atFive };
}

/**
 * Eight callers of one address signing in back to back, on a server with the service's own bounds
 * (the minute's allowance used up first: what is measured is the flood as it goes on), and beside
 * it the same callers sending a sign-in without a body (422, no check made): another workspace's
 * reads meanwhile. When both leave the reads alike, a flood of sign-ins costs what any flood costs.
 */
async function signInFlood(server, fixture, other) {
  for (let i = 0; (await signInOnce(server, fixture)) === 200; i++) {
    if (i > 1000) throw new Error('sign-in flood: no check refused after 1000 sign-ins of one address');
  }
  const flood = (body) => (until, statuses) =>
    Array.from({ length: 8 }, async () => {
      while (!until.done) statuses.push(await signInOnce(server, fixture, body));
    });
  // The server was just started: its routes are compiled first, by one round of each, unmeasured.
  await readsWhile(server, other, flood(JSON.stringify(fixture.signIn)));
  await readsWhile(server, other, flood('{}'));
  const idle = await readsWhile(server, other, () => []);
  const signIns = await readsWhile(server, other, flood(JSON.stringify(fixture.signIn)));
  const empty = await readsWhile(server, other, flood('{}'));
  return { ...signIns, idle, empty };
}

const readsOf = (other) => ({ label: 'GET /organization (another workspace)', method: 'GET', paths: ['/api/organization'], headers: { host: `${other.domain}.localhost`, authorization: `Bearer ${other.admin.token}` } });

async function signInOnce(server, fixture, body = JSON.stringify(fixture.signIn)) {
  const res = await fetchOnce(server.port, {
    method: 'POST',
    path: '/api/auth/sign-in',
    headers: { host: `${fixture.domain}.localhost`, 'content-type': 'application/json' },
    body,
  });
  return res.status;
}

/** A wrk slice of another workspace's reads while `load` signs in: the reads, and how many sign-ins answered what. */
async function readsWhile(server, other, load) {
  const until = { done: false };
  const statuses = [];
  const loops = load(until, statuses);
  const started = performance.now();
  const read = await slice(server, readsOf(other), PLAN.seconds * 2);
  until.done = true;
  await Promise.all(loops);
  const seconds = (performance.now() - started) / 1000;
  const per = (status) => statuses.filter((s) => s === status).length / seconds;
  return { ...read, statuses, signInsPerSecond: per(200), refusedPerSecond: per(429) };
}

/**
 * Webhooks, on a server delivering to a receiver in this process: how many events one instance
 * delivers per second (pings queued on 8 disabled webhooks, then all enabled at once, timed until the
 * last arrives), and POST /activities measured again with one webhook taking activity.created (its
 * deliveries made by the same server meanwhile): beside the plain POST row, the cost a webhook adds.
 */
async function webhookCase(server, ceiling, fixture, postCase) {
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${receiver.address().port}/hook`;
  const headers = { host: `${fixture.domain}.localhost`, authorization: `Bearer ${fixture.admin.token}`, 'content-type': 'application/json' };
  const api = async (method, urlPath, body) => {
    const res = await fetchOnce(server.port, { method, path: urlPath, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`webhook case: ${method} ${urlPath} ${res.status} ${res.body.toString().slice(0, 300)}`);
    return JSON.parse(res.body.toString());
  };
  const perHook = QUICK ? 50 : 250;
  const hooks = [];
  try {
    for (let i = 0; i < 8; i++) hooks.push(await api('POST', '/api/webhooks', { url, events: ['project.created'], enabled: false }));
    for (const hook of hooks) for (let n = 0; n < perHook; n++) await api('POST', `/api/webhooks/${hook.id}/ping`);
    const events = hooks.length * (perHook + 1); // each creation queued a ping too
    const started = performance.now();
    for (const hook of hooks) await api('PUT', `/api/webhooks/${hook.id}`, { enabled: true });
    const deadline = Date.now() + 300_000;
    while (received < events) {
      if (Date.now() > deadline) throw new Error(`webhook case: ${received} of ${events} events delivered in 300 s`);
      await sleep(5);
    }
    const seconds = (performance.now() - started) / 1000;
    for (const hook of hooks.splice(0)) await api('DELETE', `/api/webhooks/${hook.id}`);

    const hook = await api('POST', '/api/webhooks', { url, events: ['activity.created'] });
    hooks.push(hook);
    const shape = await probe(server, postCase);
    const before = received;
    const post = await measure(server, ceiling, { ...postCase, label: 'POST /activities + 1 webhook' }, shape.bytes);
    // Deliveries give way to a load that keeps the server busy: those left are delivered once it ends.
    const during = received - before;
    const drainStarted = performance.now();
    let seen = received;
    let lastArrival = drainStarted;
    while (performance.now() - lastArrival < 2_000 && performance.now() - drainStarted < 300_000) {
      await sleep(20);
      if (received !== seen) [seen, lastArrival] = [received, performance.now()];
    }
    const after = { delivered: received - before - during, seconds: (lastArrival - drainStarted) / 1000 };
    return { events, seconds, perSecond: events / seconds, post: { ...postCase, ...shape, ...post, label: 'POST /activities + 1 webhook' }, delivered: received, during, after };
  } finally {
    for (const hook of hooks) await api('DELETE', `/api/webhooks/${hook.id}`).catch(() => undefined);
    receiver.close();
  }
}

/** One exchange whose answer is counted as it arrives (bytes and lines), never held whole: a long export. */
function fetchCounted(port, { method = 'GET', path: urlPath, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    // A connection of its own: between two calls this process may hold its event loop longer than the
    // server keeps an idle connection (a bare aggregate runs synchronously), and would not see it closed.
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent: false }, (res) => {
      let bytes = 0;
      let lines = 0;
      let head = '';
      res.on('data', (chunk) => {
        bytes += chunk.length;
        if (head.length < 300) head += chunk.toString('utf8');
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes, lines, head }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A report's body: the period, project × user, time, billable time, revenue and cost. */
const reportBody = (period) =>
  JSON.stringify({ period: 'custom', ...period, dimensions: ['project', 'user'], metrics: ['time', 'billableTime', 'revenue', 'cost'], hideEmptyRows: true });

/** The report by tag: the period, one row per tag (and one for the entries without a tag), time and billable time. */
const tagReportBody = (period) => JSON.stringify({ period: 'custom', ...period, dimensions: ['tag'], metrics: ['time', 'billableTime'], hideEmptyRows: true });

/** Median milliseconds of `runs` sequential calls after one warm-up. */
async function timedRuns(runs, call) {
  await call();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * The bare aggregate a report is compared with, in this process on the same database: entries and
 * seconds per project and user over the same index range (activities_organization_started), no HTTP.
 */
async function bareAggregate(store, organizationId, period) {
  const { sql } = await import('kysely');
  const seconds = secondsOf(sql, store.dialect);
  return sql`select project_id, user_id, count(*) as n, sum(${seconds}) as seconds, sum(case when billable then ${seconds} else 0 end) as billable
    from activities where organization_id = ${organizationId} and started_at >= ${period.start} and started_at < ${period.end} and ended_at is not null
    group by project_id, user_id`.execute(store.db);
}

/** An activity's duration in seconds, in SQL. */
const secondsOf = (sql, dialect) =>
  dialect === 'postgres'
    ? sql`extract(epoch from ended_at::timestamptz - started_at::timestamptz)`
    : sql`(julianday(ended_at) - julianday(started_at)) * 86400`;

/**
 * The bare aggregate the report by tag is compared with: the period's entries (the same index range
 * as bareAggregate) joined to activity_tags and grouped by tag, the entries without a tag as the
 * null group, as the report has a row for them.
 */
async function bareTagAggregate(store, organizationId, period) {
  const { sql } = await import('kysely');
  const seconds = secondsOf(sql, store.dialect);
  return sql`select t.tag_id, count(*) as n, sum(${seconds}) as seconds, sum(case when billable then ${seconds} else 0 end) as billable
    from activities a left join activity_tags t on t.activity_id = a.id
    where a.organization_id = ${organizationId} and started_at >= ${period.start} and started_at < ${period.end} and ended_at is not null
    group by t.tag_id`.execute(store.db);
}

/**
 * A period of `fixture` holding about as many entries as the month of `smallest` (activities are
 * spread evenly over the same years in every workspace): the smallest workspace's month, shrunk by
 * their ratio of activities around its middle. Only the history around it grows.
 */
function sameEntriesAs(smallest, fixture) {
  const { start, end } = smallest.reportPeriods.month;
  const [from, to] = [Date.parse(start), Date.parse(end)];
  const half = ((to - from) * (smallest.activities / fixture.activities)) / 2;
  const middle = (from + to) / 2;
  return { start: new Date(middle - half).toISOString(), end: new Date(middle + half).toISOString() };
}

/** Throws unless the report by tag counts, per tag and for the untagged, the entries the bare aggregate counts: both did the same work. */
async function sameTagGroups(server, headers, body, aggregate) {
  const res = await fetchOnce(server.port, { method: 'POST', path: '/api/reports/run?timeZone=UTC', headers, body });
  const counted = (rows) => JSON.stringify(rows.map(([key, n]) => [key ?? null, Number(n)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  const report = counted(JSON.parse(res.body.toString()).rows.map((row) => [row.key, row.entries]));
  const bare = counted(aggregate.rows.map((row) => [row.tag_id, row.n]));
  if (report !== bare) throw new Error(`report case byTag: the report's groups ${report.slice(0, 300)} are not the aggregate's ${bare.slice(0, 300)}`);
}

/**
 * The report cases in each workspace: a month's summary by project × user (time, billable time,
 * revenue, cost), the same over a year, the month's detailed CSV, and the month by tag, each beside
 * the bare aggregate of its period measured in the same run (the ratio is report ÷ aggregate), over
 * HTTP as an admin; the month by tag beside its own (bareTagAggregate). `only`: 'month-by-tag'
 * measures the month by tag alone.
 */
async function reportCases(server, url, fixtures, only) {
  const { openStore } = await import('../dist/db/database.js');
  const store = openStore(url);
  const runs = QUICK ? 3 : 7;
  const out = [];
  try {
    for (const fixture of fixtures) {
      const headers = { host: `${fixture.domain}.localhost`, authorization: `Bearer ${fixture.admin.token}`, 'content-type': 'application/json' };
      const call = (path, period, body = reportBody) => async () => {
        const res = await fetchCounted(server.port, { method: 'POST', path, headers, body: body(period) });
        if (res.status !== 200) throw new Error(`report case ${path}: ${res.status} ${res.head}`);
        return res;
      };
      const row = { activities: fixture.activities, labels: fixture.labels };
      const run = '/api/reports/run?timeZone=UTC';
      const cases = [
        ['month', run, fixture.reportPeriods.month],
        ['year', run, fixture.reportPeriods.year],
        ['csv', '/api/reports/entries?format=csv&timeZone=UTC', fixture.reportPeriods.month],
        ['equal', run, sameEntriesAs(fixtures[0], fixture)],
        ['byTag', run, fixture.reportPeriods.month, tagReportBody, bareTagAggregate],
      ];
      for (const [name, path, period, body, aggregate = bareAggregate] of cases.filter(([name]) => only !== 'month-by-tag' || name === 'byTag')) {
        const ms = await timedRuns(runs, call(path, period, body));
        const bareMs = await timedRuns(runs, () => aggregate(store, fixture.organizationId, period));
        const rows = name === 'csv' ? (await call(path, period)()).lines - 2 : undefined;
        if (name === 'byTag') await sameTagGroups(server, headers, body(period), await aggregate(store, fixture.organizationId, period));
        row[name] = { ms, bareMs, ratio: ms / bareMs, rows };
        log(`  reports ${fixture.activities}: ${name} ${fmt(ms, 1)} ms, bare aggregate ${fmt(bareMs, 1)} ms, × ${fmt(ms / bareMs, 2)}${rows === undefined ? '' : `, ${rows} rows`}`);
      }
      out.push(row);
    }
  } finally {
    await store.close();
  }
  return out;
}

/** A detailed CSV of every entry of the large workspace (1,000,000 in the full run): rows/s and the server's peak RSS. */
async function exportCase(server, fixture) {
  const headers = { host: `${fixture.domain}.localhost`, authorization: `Bearer ${fixture.admin.token}`, 'content-type': 'application/json' };
  const before = memoryOf(server.pid);
  try {
    fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
  } catch {
    // VmHWM is then the process's lifetime peak.
  }
  let sampled = before.rss;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, memoryOf(server.pid).rss);
  }, 5);
  const started = performance.now();
  const res = await fetchCounted(server.port, {
    method: 'POST',
    path: '/api/reports/entries?format=csv&timeZone=UTC',
    headers,
    body: JSON.stringify({ period: 'custom', ...fixture.reportPeriods.all, dimensions: ['project'], metrics: ['time', 'revenue', 'cost'] }),
  });
  const ms = performance.now() - started;
  clearInterval(timer);
  if (res.status !== 200) throw new Error(`export case: ${res.status} ${res.head}`);
  const rows = res.lines - 2;
  return { rows, bytes: res.bytes, ms, rowsPerSecond: rows / (ms / 1000), baseline: before.rss, peak: Math.max(memoryOf(server.pid).peak, sampled) };
}

/** The rows of the import case's file (issue 44's figure). */
const IMPORT_ROWS = 100_000;

/** A Toggl Track detailed CSV of `rows` entries: 50 people, 200 projects of 20 clients, 10 tags, 15-minute entries. */
function togglFile(file, rows) {
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, '\uFEFFUser,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags\r\n');
  let chunk = '';
  const start = Date.UTC(2024, 0, 1, 8);
  for (let i = 0; i < rows; i++) {
    const person = i % 50;
    const at = new Date(start + Math.floor(i / 50) * 20 * 60_000);
    const end = new Date(at.getTime() + 15 * 60_000);
    const [date, time] = at.toISOString().slice(0, 19).split('T');
    const [endDate, endTime] = end.toISOString().slice(0, 19).split('T');
    chunk += `Person ${person},person${person}@import.example.com,Client ${i % 20},Project ${i % 200},,"Work, item ${i}",${i % 3 === 0 ? 'Yes' : 'No'},${date},${time},${endDate},${endTime},00:15:00,tag${i % 10}\r\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
}

/**
 * The import (issue 44): a 100,000-row Toggl file imported into a new workspace of the running server
 * (goals: ≥ 10,000 rows/s from the 202 to the end, peak RSS ≤ 300 MB), while another workspace's admin
 * reads one of its activities one request after another (goal: p90 within 3× of idle).
 */
async function importCase(server, databaseUrl, other, seconds) {
  const domain = `bench-import-${Date.now().toString(36)}`;
  const created = JSON.parse(
    execFileSync(process.execPath, [path.join(ROOT, 'bin/timetrack.js'), 'workspace', 'create', '--domain', domain, '--name', 'Import', '--admin-email', `admin@${domain}.example.com`], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' },
      encoding: 'utf8',
    }),
  );
  const file = path.join(OUTPUT_DIR, 'toggl-import.csv');
  togglFile(file, IMPORT_ROWS);
  const otherHeaders = { host: `${other.domain}.localhost`, authorization: `Bearer ${other.admin.token}` };
  const listed = await fetchOnce(server.port, { path: '/api/activities?limit=1', headers: otherHeaders });
  const activityId = Object.keys(JSON.parse(listed.body))[0];
  const read = { path: `/api/activities/${activityId}`, headers: otherHeaders };
  const readsUntil = async (done) => {
    const times = [];
    while (!done()) {
      const started = performance.now();
      const res = await fetchOnce(server.port, read);
      if (res.status !== 200) throw new Error(`import case: GET /activities/{id} ${res.status}`);
      times.push(performance.now() - started);
    }
    return times;
  };
  const idleUntil = performance.now() + seconds * 1000;
  const idle = await readsUntil(() => performance.now() > idleUntil);

  const before = memoryOf(server.pid);
  try {
    fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
  } catch {
    // VmHWM is then the process's lifetime peak.
  }
  let sampled = before.rss;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, memoryOf(server.pid).rss);
  }, 20);
  const headers = { host: `${domain}.localhost`, authorization: `Bearer ${created.apiKey}`, 'content-type': 'text/csv' };
  const started = performance.now();
  const posted = await fetchOnce(server.port, { method: 'POST', path: '/api/imports?source=toggl&timeZone=UTC', headers, body: fs.readFileSync(file) });
  if (posted.status !== 202) throw new Error(`import case: POST /imports ${posted.status} ${posted.body}`);
  const importId = JSON.parse(posted.body).id;
  let ended;
  const during = readsUntil(() => ended !== undefined);
  while (ended === undefined) {
    await sleep(100);
    const res = await fetchOnce(server.port, { path: `/api/imports/${importId}`, headers });
    const record = JSON.parse(res.body);
    if (record.status === 'succeeded' || record.status === 'failed') ended = record;
  }
  const ms = performance.now() - started;
  const loaded = await during;
  clearInterval(sampler);
  fs.rmSync(file, { force: true });
  if (ended.status !== 'succeeded' || ended.created.activities !== IMPORT_ROWS) throw new Error(`import case: ${JSON.stringify(ended).slice(0, 500)}`);
  return {
    rows: IMPORT_ROWS,
    ms,
    rowsPerSecond: IMPORT_ROWS / (ms / 1000),
    baseline: before.rss,
    peak: Math.max(memoryOf(server.pid).peak, sampled),
    idleP90: p90(idle),
    importP90: p90(loaded),
    reads: loaded.length,
  };
}

function quietness() {
  const [one, five] = os.loadavg();
  return `load average ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min) on ${CORES} cores`;
}

const pad = (text, width, right = false) => (right ? String(text).padStart(width) : String(text).padEnd(width));
const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** How the store's answers to writes wait for the disk, for the table's heading. */
function durabilityOf(store, synchronous) {
  if (store !== 'sqlite') return '';
  if (synchronous === 'normal') return ' (synchronous=normal: writes answered before the WAL is flushed)';
  if (synchronous === 'full') return ' (synchronous=full: a flush inside every commit)';
  return ' (group commit: each answer to a write waits for a flush of the WAL)';
}

const rangeOf = ([low, high]) => `${fmt(low * 100, 1)}–${fmt(high * 100, 1)} %`;

function printTable(store, results, scaling, memory, meta) {
  const lines = [];
  lines.push('');
  lines.push(`## ${store}${durabilityOf(store, meta.synchronous)} — ${meta.main.toLocaleString('en')} activities, ${meta.mode}; ${meta.machine}`);
  lines.push(`   load: ${meta.loadBefore} before, ${meta.loadAfter} after; ${canPin ? 'servers on core 0, wrk (1 thread, ' + PLAN.connections + ' connections) on core 1' : 'not pinned'}`);
  const validated = meta.limits?.validated === true;
  const share = (ratio) => (validated ? `${fmt(ratio * 100, 1)} %` : '-');
  if (meta.limits) {
    const l = meta.limits;
    lines.push('');
    lines.push(`Limits of this run (GET /activities/{id}'s requests, ${l.bytes}-byte answers; share of the bare node:http server's req/s in the same rounds):`);
    lines.push('');
    const head = `| ${pad('server', 58)} | ${pad('req/s', 7, true)} | ${pad('CPU µs/req', 10, true)} | ${pad('share', 7, true)} |`;
    lines.push(head, head.replace(/[^|]/g, '-'));
    for (const r of l.rows) lines.push(`| ${pad(r.label, 58)} | ${pad(fmt(r.rps), 7, true)} | ${pad(fmt(r.cpuUs, 1), 10, true)} | ${pad(`${fmt(r.ratio * 100, 1)} %`, 7, true)} |`);
    lines.push('');
    const [top, reach] = l.rows;
    lines.push(
      validated
        ? `The ceiling is the bare server's limit, not the generator's: ${fmt((top.rps / reach.rps) * 100, 1)} % of what wrk drives against a raw socket (must stay under ${fmt((1 - NOISE) * 100)} %).`
        : `NOT VALIDATED: the ceiling reached ${fmt((top.rps / reach.rps) * 100, 1)} % of what wrk drives against a raw socket (over ${fmt((1 - NOISE) * 100)} %): the generator may be what limits it, so no ratios are reported.`,
    );
    lines.push(
      `The default log level costs ${fmt(l.logCost * 100, 1)} % of GET /activities/{id}'s req/s against LOG_LEVEL=warn (goal ≤ 10 %); at the default level the service answers ${share(l.overStandIn)} of the stand-in with its primary-key read and no log (goal ≥ 70 %).`,
      `Medians of ${l.pairs} rounds; the rounds ranged ${rangeOf(l.logCostRange)} for the log level's cost and ${validated ? rangeOf(l.overStandInRange) : '-'} for the share of the stand-in.`,
    );
  } else if (results.length > 0) {
    lines.push('', 'Limits not measured in this run: no ratios are reported.');
  }
  if (results.length > 0) lines.push('');
  const header = `| ${pad('case', 48)} | ${pad('entries', 7, true)} | ${pad('bytes', 7, true)} | ${pad('req/s', 7, true)} | ${pad('p50 ms', 6, true)} | ${pad('p99 ms', 6, true)} | ${pad('CPU µs/req', 10, true)} | ${pad('ceiling req/s', 13, true)} | ${pad('ratio', 7, true)} | ${pad('stand-in req/s', 14, true)} | ${pad('of stand-in', 11, true)} |`;
  if (results.length > 0) lines.push(header, header.replace(/[^|]/g, '-'));
  for (const r of results) {
    lines.push(
      `| ${pad(r.label, 48)} | ${pad(r.entries, 7, true)} | ${pad(r.bytes, 7, true)} | ${pad(fmt(r.rps), 7, true)} | ${pad(fmt(r.p50, 2), 6, true)} | ${pad(fmt(r.p99, 2), 6, true)} | ${pad(fmt(r.cpuUs, 1), 10, true)} | ${pad(fmt(r.ceilingRps), 13, true)} | ${pad(share(r.ratio), 7, true)} | ${pad(fmt(r.standInRps), 14, true)} | ${pad(share(r.standInRatio), 11, true)} |`,
    );
  }
  for (const r of results.filter((x) => x.serviceOver !== undefined)) {
    lines.push('', `${r.label}: the service as it runs by default answers ${fmt(r.serviceOver * 100, 1)} % of its req/s (goal: within 1.5×, ≥ 66.7 %); it answers ${share(r.standInRatio)} of the stand-in's INSERT at synchronous=NORMAL (goal ≥ 50 %).`);
  }
  if (scaling.length > 0) {
    lines.push('');
    lines.push('Scaling: the ~100-entry filtered read (as the user) in workspaces of growing size');
    const base = scaling[0];
    for (const s of scaling) {
      lines.push(
        `  ${pad(s.activities.toLocaleString('en'), 10, true)} activities: ${fmt(s.rps)} req/s, ${fmt(s.cpuUs, 1)} µs CPU/req, ${share(s.ratio)} of ceiling;` +
          ` cost × ${fmt(base.ratio / s.ratio, 2)} (by ratio to the ceiling), × ${fmt(s.cpuUs / base.cpuUs, 2)} (CPU), × ${fmt(base.rps / s.rps, 2)} (req/s) of the ${base.activities.toLocaleString('en')} one`,
      );
    }
  }
  if (meta.webhooks) {
    const w = meta.webhooks;
    const plain = results.find((r) => r.id === 'post');
    lines.push('');
    lines.push(
      `Webhooks: ${w.events} events delivered by one instance to a local receiver in ${fmt(w.seconds, 2)} s (${fmt(w.perSecond)} events/s);` +
        ` POST /activities with one webhook taking activity.created: ${fmt(w.post.rps)} req/s, ${fmt(w.post.cpuUs, 1)} µs CPU/req` +
        // Not by shares of the ceiling: the worker's deliveries go on in the background and slow the ceiling's slices too.
        (plain ? ` (without: ${fmt(plain.rps)} req/s, ${fmt(plain.cpuUs, 1)} µs; cost ${fmt((1 - w.post.rps / plain.rps) * 100, 1)} % of req/s)` : ' (run the post case too to compare)') +
        `; its events: ${fmt(w.during)} delivered while the POSTs ran (and the ceiling's slices between theirs), ${fmt(w.after.delivered)} after them, the last ${fmt(w.after.seconds, 1)} s after`,
    );
  }
  if (meta.metrics) {
    const m = meta.metrics;
    lines.push('');
    lines.push(
      `Metrics: GET /activities/{id} with METRICS_PORT set (scraped every second) ${fmt(m.on.rps)} req/s, ${fmt(m.on.cpuUs, 1)} µs CPU/req;` +
        ` without ${fmt(m.off.rps)} req/s, ${fmt(m.off.cpuUs, 1)} µs; cost ${fmt(m.cost * 100, 1)} % of req/s (rounds ${m.range.map((r) => fmt(r * 100, 1)).join(' to ')} %; goal: within 5 %)`,
    );
  }
  if (meta.signIn) {
    const s = meta.signIn;
    const ofIdle = (load, idle = s.idle) => `${fmt(load.rps)} req/s (${fmt((load.rps / idle.rps) * 100, 1)} % of idle, p99 ${fmt(load.p99, 1)} ms)`;
    lines.push('');
    lines.push(
      `Sign-in: POST /auth/sign-in ${fmt(s.signInMs, 1)} ms and ${fmt(s.cpuMs, 1)} ms of server CPU; a password check alone ${fmt(s.hashMs, 1)} ms and ${fmt(s.hashCpuMs, 1)} ms CPU.` +
        ` Another workspace's GET /organization: idle ${fmt(s.idle.rps)} req/s (p99 ${fmt(s.idle.p99, 1)} ms), at ${fmt(s.atFive.signInsPerSecond, 1)} sign-ins/s ${ofIdle(s.atFive)};` +
        ` with the default bounds (idle ${fmt(s.flooded.idle.rps)} req/s), under 8 callers of one address signing in back to back` +
        ` (${fmt(s.flooded.signInsPerSecond, 1)} taken/s, ${fmt(s.flooded.refusedPerSecond)} refused/s) ${ofIdle(s.flooded, s.flooded.idle)},` +
        ` under the same callers sending no body (422, no check) ${ofIdle(s.flooded.empty, s.flooded.idle)}`,
    );
  }
  if (meta.flood) {
    const f = meta.flood;
    lines.push('');
    lines.push(
      `Flood: 12 parallel unfiltered GET /activities of one user (${f.entries.toLocaleString('en')} activities; ${f.statuses[200]} × 200, ${f.statuses[429]} × 429, ${f.statuses.other} other):` +
        ` another workspace's GET /organization p90 ${fmt(f.floodP90, 1)} ms (idle p90 ${fmt(f.idleP90, 1)} ms, × ${fmt(f.floodP90 / f.idleP90, 1)}; goal ≤ 5×)`,
    );
  }
  if (meta.reportFlood) {
    const f = meta.reportFlood;
    lines.push('');
    lines.push(
      `Report flood: 6 callers of one admin running a filled summary of ${f.projects} projects × ${f.filledDays} days (JSON, ${fmt(f.filledBytes / 1e6, 1)} MB, and PDF) and a project × user summary of ${f.entries.toLocaleString('en')} entries` +
        ` (${f.statuses[200]} × 200, ${f.statuses[429]} × 429, ${f.statuses.other} other), 2 detailed exports paused:` +
        ` another workspace's GET /organization p90 ${fmt(f.floodP90, 1)} ms, longest ${fmt(f.floodMax, 1)} ms (idle p90 ${fmt(f.idleP90, 1)} ms, longest ${fmt(f.idleMax, 1)} ms; × ${fmt(f.floodP90 / f.idleP90, 1)}; goals: longest < 250 ms, p90 ≤ 5×)`,
    );
  }
  const part = (x, what) => `${what} ${fmt(x.ms, 1)} ms (aggregate ${fmt(x.bareMs, 1)} ms, × ${fmt(x.ratio, 2)}${x.rows === undefined ? '' : `, ${x.rows.toLocaleString('en')} rows`})`;
  if (meta.reports?.[0].month) {
    lines.push('');
    lines.push('Reports (project × user; time, billable time, revenue, cost; as an admin over HTTP) beside the bare SQL aggregate of the same period and index range, in this process:');
    for (const r of meta.reports) {
      lines.push(`  ${pad(r.activities.toLocaleString('en'), 10, true)} activities: ${part(r.month, 'month')}; ${part(r.year, 'year')}; ${part(r.csv, 'month CSV')}`);
    }
    const first = meta.reports[0];
    const last = meta.reports[meta.reports.length - 1];
    lines.push(
      `  a report of as many entries as the ${first.activities.toLocaleString('en')}-activity workspace's month, in each workspace: ` +
        meta.reports.map((r) => `${r.activities.toLocaleString('en')}: ${fmt(r.equal.ms, 1)} ms (aggregate ${fmt(r.equal.bareMs, 1)} ms)`).join('; ') +
        `; at ${last.activities.toLocaleString('en')} against ${first.activities.toLocaleString('en')}: × ${fmt(last.equal.ms / first.equal.ms, 2)} (goal ≤ 1.5×)`,
    );
    lines.push(`  the month's report at ${last.activities.toLocaleString('en')} against ${first.activities.toLocaleString('en')}: × ${fmt(last.month.ms / first.month.ms, 2)} (its month holds ${fmt(last.activities / first.activities)}× the entries)`);
  }
  if (meta.reports) {
    lines.push('');
    lines.push(
      "A month's report by tag (time, billable time; as an admin over HTTP) beside the bare SQL aggregate of the same index range joined to activity_tags and grouped by tag, in this process:",
    );
    for (const r of meta.reports) {
      const tagged = `${r.labels.tagged.toLocaleString('en')} of its entries with two of ${r.labels.tags} tags`;
      lines.push(`  ${pad(r.activities.toLocaleString('en'), 10, true)} activities (${tagged}): ${part(r.byTag, 'month by tag')} (goal ≤ 3×: ${r.byTag.ratio <= 3 ? 'met' : 'NOT met'})`);
    }
  }
  if (meta.exported) {
    const e = meta.exported;
    lines.push('');
    lines.push(
      `Export: detailed CSV of ${e.rows.toLocaleString('en')} entries (${(e.bytes / 1e6).toFixed(1)} MB) in ${fmt(e.ms)} ms: ${fmt(e.rowsPerSecond)} rows/s (goal ≥ 100,000), peak RSS ${fmt(e.peak)} MB (goal ≤ 250; idle before: ${fmt(e.baseline)} MB)`,
    );
  }
  if (meta.imported) {
    const i = meta.imported;
    lines.push('');
    lines.push(
      `Import: a ${i.rows.toLocaleString('en')}-row Toggl CSV in ${fmt(i.ms)} ms from the 202 to its end: ${fmt(i.rowsPerSecond)} rows/s (goal ≥ 10,000), ` +
        `peak RSS ${fmt(i.peak)} MB (goal ≤ 300; idle before: ${fmt(i.baseline)} MB); another workspace's GET /activities/{id} p90 ${fmt(i.importP90, 2)} ms ` +
        `over ${i.reads} reads (idle ${fmt(i.idleP90, 2)} ms; goal within 3×)`,
    );
  }
  if (memory) {
    lines.push('');
    lines.push(
      `Memory: unfiltered GET /activities of one user, ${memory.entries.toLocaleString('en')} entries (${(memory.bytes / 1e6).toFixed(1)} MB) in ${fmt(memory.ms)} ms: peak RSS ${fmt(memory.peak)} MB (idle before: ${fmt(memory.baseline)} MB)`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
}

async function runStore(store) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-bench-'));
  let url;
  let schema;
  const benchFile = path.join(tmp, 'bench.db');
  if (store === 'sqlite') url = sqliteUrl(benchFile);
  else {
    schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
    url = withSchema(process.env.BENCH_DATABASE_URL, schema);
  }
  const { seed } = await import('./seed.mjs');
  const workspaces = [
    ...PLAN.scale.map((activities, i) => ({ domain: `bench-scale${i}`, activities })),
    { domain: 'bench-main', activities: PLAN.main, heavyShare: 0.1 },
  ];
  log(`[${store}] seeding ${workspaces.map((w) => w.activities.toLocaleString('en')).join(' + ')} activities...`);
  const fixtures = await seed(url, workspaces, log);
  const main = fixtures[fixtures.length - 1];

  /**
   * The service as `npm start` runs it, log level included. `listingBounds: 'default'` keeps the
   * service's own bounds on concurrent listings and password checks (the flood cases); else they are
   * out of the way. `logLevel` and `synchronous` start it otherwise, for the limits table.
   */
  const startServer = async ({ root = ROOT, databaseUrl = url, listingBounds = 'raised', logLevel, synchronous, metricsPort } = {}) => {
    const port = await freePort();
    const started = await startProcess(
      0,
      [process.execPath, ...profiling(), path.join(root, 'bin/start.js')],
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: synchronous ? `${databaseUrl.split('?')[0]}?synchronous=${synchronous}` : databaseUrl,
        BASE_DOMAIN: 'localhost',
        ...(logLevel ? { LOG_LEVEL: logLevel } : {}),
        // The metrics case: the metrics listener on, as an operator who scrapes them runs it.
        ...(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}),
        // No demo workspace: the bench seeds its own.
        BOOTSTRAP: 'false',
        // No balancer takes the server out: it stops at once when the case ends.
        SHUTDOWN_DRAIN_MS: '0',
        // The webhooks case delivers to a receiver on this machine.
        WEBHOOK_ALLOW_PRIVATE: 'true',
        // The limiter still runs on every request; its limits are raised so that it never answers 429 here.
        RATE_LIMIT_PER_ADDRESS: '1000000000',
        RATE_LIMIT_PER_TOKEN: '1000000000',
        // Likewise the bounds on listings running at once, which ten connections of one token would meet.
        ...(listingBounds === 'default' ? {} : { LISTING_CONCURRENCY_PER_TOKEN: '1000000', LISTING_CONCURRENCY_PER_WORKSPACE: '1000000', SIGN_IN_ATTEMPTS_PER_ADDRESS: '1000000000' }),
      },
      '/readyz',
      port,
      root,
    );
    started.port = port;
    return started;
  };
  const startHelper = async (script, env = {}, argument) => {
    const port = await freePort();
    const command = [process.execPath, ...profiling(), path.join(ROOT, 'bench', script), ...(argument === undefined ? [] : [argument])];
    // Every helper answers /readyz with 200 (the ceiling and the raw socket answer any path).
    const started = await startProcess(0, command, { PORT: String(port), ...env }, '/readyz', port);
    started.port = port;
    return started;
  };
  /** The stand-in (bench/stand-in.mjs) on this store, knowing the fixture's tokens; `log` 'info' or 'off'. */
  const startStandIn = (log) =>
    startHelper(
      'stand-in.mjs',
      {},
      JSON.stringify({
        url: store === 'sqlite' ? sqliteUrl(benchFile) : url,
        log,
        identities: ['admin', 'reader', 'writer', 'heavy'].map((who) => ({ token: main[who].token, userId: main[who].id, organizationId: main.organizationId })),
      }),
    );
  let server;
  let ceiling;
  let standIn;
  /** PostgreSQL with --compare: the schemas of both builds' copies beside the seeded one. */
  const copySchemas = [];

  const loadBefore = quietness();
  const results = [];
  const scaling = [];
  let memory;
  let flood;
  let reportFlood;
  let signIn;
  let webhooks;
  let metrics;
  let reports;
  let exported;
  let imported;
  let limits;
  try {
    if (COMPARE) {
      // Each build on a copy of the seeded data made the same way, in its own schema: the two files
      // (or schemas) differ in nothing but what the builds' migrations make.
      const { copyForBuild } = await import('./build-store.mjs');
      const copyFor = async (root, name) => {
        const target = store === 'sqlite' ? { file: path.join(tmp, `${name}.db`) } : { schema: `${schema}_${name}` };
        target.url = store === 'sqlite' ? sqliteUrl(target.file) : withSchema(url, target.schema);
        if (target.schema) copySchemas.push(target.schema);
        await copyForBuild({ root, store, source: { url, file: benchFile, schema }, target, log: (line) => log(`[${store}] ${name}: ${line}`) });
        return target.url;
      };
      server = await startServer({ databaseUrl: await copyFor(ROOT, 'own') });
      ceiling = await startServer({ root: referenceRoot, databaseUrl: await copyFor(referenceRoot, 'ref') });
    } else {
      server = await startServer();
      ceiling = await startHelper('ceiling.mjs');
      standIn = await startStandIn('info');
    }
    if (!COMPARE && (!ONLY || ONLY.some((id) => id === 'limits' || casesOf(main).some((c) => c.id === id)))) {
      limits = await limitsCase({ store, server, ceiling, standIn, fixture: main, startHelper, startStandIn, startServer });
      log(`[${store}] limits: ${limits.rows.map((r) => `${r.label} ${fmt(r.rps)}`).join('; ')}`);
    }
    for (const c of casesOf(main)) {
      if (ONLY && !ONLY.includes(c.id)) continue;
      const shape = await probe(server, c);
      if (COMPARE) {
        // The same listing on both sides: the same entries, each answered with the fields its build knows.
        const theirs = await probe(ceiling, c);
        if (theirs.entries !== shape.entries) throw new Error(`${c.label}: ${shape.entries} entries here, ${theirs.entries} on ${COMPARE}`);
        shape.referenceBytes = theirs.bytes;
      }
      log(`[${store}] ${c.label}: ${shape.entries} entries, ${shape.bytes} bytes${COMPARE ? ` (${shape.referenceBytes} on ${COMPARE})` : ''}`);
      // POST is also measured on the same build at synchronous=normal (SQLite), in the same rounds.
      const normal = c.id === 'post' && store === 'sqlite' && !COMPARE && SQLITE_SYNCHRONOUS === undefined ? await startServer({ synchronous: 'normal' }) : undefined;
      try {
        const others = normal ? [{ label: `${c.label}, synchronous=normal`, target: normal }] : [];
        const m = await measure(server, ceiling, c, shape.bytes, { standIn, others });
        results.push({ ...c, ...shape, ...m });
        for (const other of m.others) results.push({ ...c, id: `${c.id}-other`, ...shape, ...other });
        const against = COMPARE ? `× ${fmt(m.ratio, 3)} of ${COMPARE}'s req/s` : `ratio ${fmt(m.ratio * 100, 1)} %, ${fmt(m.standInRatio * 100, 1)} % of the stand-in`;
        log(`[${store}]   ${fmt(m.rps)} req/s, ${fmt(m.cpuUs, 1)} µs/req, ${against} (${m.ratios.map((r) => fmt(r * 100, 1)).join(', ')})`);
      } finally {
        if (normal) await stopProcess(normal);
      }
    }
    if (!COMPARE && (!ONLY || ONLY.includes('scaling'))) {
      for (const fixture of fixtures) {
        const c = casesOf(fixture).find((x) => x.id === 'list-100-user');
        const shape = await probe(server, c);
        const m = await measure(server, ceiling, c, shape.bytes);
        scaling.push({ activities: fixture.activities, ...shape, ...m });
        log(`[${store}] scaling ${fixture.activities}: ${shape.entries} entries, ${fmt(m.rps)} req/s, ${fmt(m.cpuUs, 1)} µs/req`);
      }
    }
    if (!COMPARE && (!ONLY || ONLY.includes('webhooks'))) {
      webhooks = await webhookCase(server, ceiling, main, casesOf(main).find((x) => x.id === 'post'));
      log(`[${store}] webhooks: ${webhooks.events} events in ${fmt(webhooks.seconds, 2)} s; POST with a webhook ${fmt(webhooks.post.rps)} req/s`);
    }
    if (!COMPARE && (!ONLY || ONLY.includes('metrics'))) {
      metrics = await metricsCase(server, ceiling, standIn, casesOf(main).find((x) => x.id === 'get-one'), startServer);
      log(`[${store}] metrics: GET /activities/{id} ${fmt(metrics.on.rps)} req/s with METRICS_PORT, ${fmt(metrics.off.rps)} without; cost ${fmt(metrics.cost * 100, 1)} % of req/s`);
    }
    if (!COMPARE && (!ONLY || ONLY.includes('sign-in'))) {
      signIn = await signInCase(server, main, fixtures[0]);
      await stopProcess(server);
      server = await startServer({ listingBounds: 'default' });
      signIn.flooded = await signInFlood(server, main, fixtures[0]);
      log(`[${store}] sign-in: ${fmt(signIn.signInMs, 1)} ms (a password check alone ${fmt(signIn.hashMs, 1)} ms); reads idle ${fmt(signIn.idle.rps)} req/s, ${fmt(signIn.atFive.rps)} at 5 sign-ins/s, ${fmt(signIn.flooded.rps)} under a flood`);
    }
    if (!COMPARE && (!ONLY || ONLY.includes('flood'))) {
      // On a server with the service's own bounds on listings, which the flood is meant to meet.
      await stopProcess(server);
      server = await startServer({ listingBounds: 'default' });
      flood = await floodCase(server, main, fixtures[0], PLAN.seconds * 3);
      log(`[${store}] flood: other workspace p90 ${fmt(flood.floodP90, 1)} ms (idle ${fmt(flood.idleP90, 1)} ms), ${JSON.stringify(flood.statuses)}`);
    }
    if (!COMPARE && (!ONLY || ONLY.includes('report-flood'))) {
      // The service's own bounds on report runs and long reads, which the flood is meant to meet.
      await stopProcess(server);
      server = await startServer({ listingBounds: 'default' });
      reportFlood = await besideServerCore(store, () => reportFloodCase(server, main, fixtures[0], PLAN.seconds * 3));
      log(`[${store}] report flood: other workspace p90 ${fmt(reportFlood.floodP90, 1)} ms, longest ${fmt(reportFlood.floodMax, 1)} ms (idle ${fmt(reportFlood.idleP90, 1)}, ${fmt(reportFlood.idleMax, 1)} ms), ${JSON.stringify(reportFlood.statuses)}`);
    }
    if (!COMPARE && (!ONLY || ONLY.includes('reports') || ONLY.includes('month-by-tag'))) {
      reports = await reportCases(server, url, fixtures, ONLY && !ONLY.includes('reports') ? 'month-by-tag' : undefined);
    }
    if (!COMPARE && (!ONLY || ONLY.includes('export'))) {
      // On a server of its own, so that its peak RSS is the export's.
      await stopProcess(server);
      server = await startServer();
      exported = await exportCase(server, main);
      log(`[${store}] export: ${exported.rows} rows in ${fmt(exported.ms)} ms, ${fmt(exported.rowsPerSecond)} rows/s, peak RSS ${fmt(exported.peak)} MB`);
    }
    if (!COMPARE && (!ONLY || ONLY.includes('import'))) {
      // On a server of its own, so that its peak RSS is the import's.
      await stopProcess(server);
      server = await startServer();
      imported = await importCase(server, url, fixtures[0], PLAN.seconds);
      log(`[${store}] import: ${imported.rows} rows in ${fmt(imported.ms)} ms, ${fmt(imported.rowsPerSecond)} rows/s, peak RSS ${fmt(imported.peak)} MB; other p90 ${fmt(imported.importP90, 2)} ms (idle ${fmt(imported.idleP90, 2)} ms)`);
    }
    if (!COMPARE && (!ONLY || ONLY.includes('memory'))) {
      // On a server of its own (as after a restart), so what earlier cases left on the heap does not count.
      await stopProcess(server);
      server = await startServer();
      memory = await memoryCase(server, main);
    }
  } finally {
    for (const proc of [server, ceiling, standIn]) if (proc) await stopProcess(proc);
    fs.rmSync(tmp, { recursive: true, force: true });
    if (schema && !KEEP) await dropSchema(schema);
    for (const copy of copySchemas) await dropSchema(copy);
    if (KEEP) fs.writeFileSync(KEEP, JSON.stringify({ store, url, main }));
  }
  const meta = {
    main: PLAN.main,
    mode: QUICK ? 'quick' : 'full',
    synchronous: store === 'sqlite' ? SQLITE_SYNCHRONOUS : undefined,
    machine: `${os.cpus()[0].model.trim()}, ${CORES} cores, Node ${process.version}, ${os.platform()} ${os.release()}`,
    loadBefore,
    loadAfter: quietness(),
    limits,
    flood,
    reportFlood,
    signIn,
    webhooks,
    metrics,
    reports,
    exported,
    imported,
  };
  if (COMPARE) printComparison(store, results, meta);
  else printTable(store, results, scaling, memory, meta);
  return { store, meta, results, scaling, memory, flood, webhooks, reports, exported };
}

/** DATABASE_URL of a SQLite file, at the --sqlite-synchronous level when one is given. */
function sqliteUrl(file) {
  return `sqlite:${file}${SQLITE_SYNCHRONOUS ? `?synchronous=${SQLITE_SYNCHRONOUS}` : ''}`;
}

/** A PostgreSQL DATABASE_URL confined to another schema of the same database. */
function withSchema(url, schema) {
  const other = new URL(url);
  other.searchParams.set('schema', schema);
  return other.toString();
}

/** Git revision REF built in a temporary worktree that uses this checkout's node_modules. */
function buildReference(ref) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-reference-'));
  execFileSync('git', ['worktree', 'add', '--detach', root, ref], { cwd: ROOT, stdio: 'ignore' });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  log(`[compare] building ${ref} in ${root}...`);
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  return root;
}

function removeReference(root) {
  execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT, stdio: 'ignore' });
}

/** How far apart two builds must be, in the median of pairs, before --compare tells them apart on these VMs. */
const COMPARE_NOISE = 0.1;

function printComparison(store, results, meta) {
  const lines = ['', `## ${store}: this tree against ${COMPARE} — ${meta.main.toLocaleString('en')} activities, ${meta.mode}; ${meta.machine}`];
  lines.push(`   load: ${meta.loadBefore} before, ${meta.loadAfter} after; both servers on core 0 in turn, wrk on core 1; each on its own schema and a copy of the same data`, '');
  const header =
    `| ${pad('case', 40)} | ${pad('entries', 7, true)} | ${pad('bytes', 7, true)} | ${pad('ref bytes', 9, true)} | ${pad('req/s', 7, true)} | ${pad('ref req/s', 9, true)} | ${pad('× req/s', 7, true)} | ${pad('pairs', 23)} |` +
    ` ${pad('CPU µs/req', 10, true)} | ${pad('ref CPU', 7, true)} | ${pad('× CPU', 5, true)} | ${pad('CPU pairs', 23)} | ${pad('µs/entry', 8, true)} | ${pad('ref µs/entry', 12, true)} |`;
  lines.push(header, header.replace(/[^|]/g, '-'));
  const pairs = (ratios) => ratios.map((x) => fmt(x, 2)).join(' ');
  for (const r of results) {
    lines.push(
      `| ${pad(r.label, 40)} | ${pad(r.entries, 7, true)} | ${pad(r.bytes, 7, true)} | ${pad(r.referenceBytes ?? '-', 9, true)} | ${pad(fmt(r.rps), 7, true)} | ${pad(fmt(r.ceilingRps), 9, true)} | ${pad(fmt(r.ratio, 3), 7, true)} | ${pad(pairs(r.ratios), 23)} |` +
        ` ${pad(fmt(r.cpuUs, 1), 10, true)} | ${pad(fmt(r.ceilingCpuUs, 1), 7, true)} | ${pad(fmt(r.cpuRatio, 3), 5, true)} | ${pad(pairs(r.cpuRatios), 23)} | ${pad(fmt(r.cpuUs / r.entries, 2), 8, true)} | ${pad(fmt(r.ceilingCpuUs / r.entries, 2), 12, true)} |`,
    );
  }
  const range = (ratios) => `${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}`;
  const listings = results.filter((r) => r.id === 'list-1000-user' || r.id === 'list-1000-admin');
  const one = results.find((r) => r.id === 'get-one');
  if (listings.length > 0 || one) lines.push('');
  for (const r of listings) {
    lines.push(
      `${r.label}: ${fmt(r.cpuUs / r.entries, 2)} µs of server CPU per entry against ${fmt(r.ceilingCpuUs / r.entries, 2)} on ${COMPARE}: × ${fmt(r.cpuRatio, 3)} (pairs ${range(r.cpuRatios)}; goal ≤ 1.25×: ${r.cpuRatio <= 1.25 ? 'met' : 'NOT met'})`,
    );
  }
  if (one) {
    const within = (x) => Math.abs(x - 1) <= COMPARE_NOISE;
    lines.push(
      `${one.label}: × ${fmt(one.ratio, 3)} of ${COMPARE}'s req/s (pairs ${range(one.ratios)}), × ${fmt(one.cpuRatio, 3)} its CPU per request (pairs ${range(one.cpuRatios)});` +
        ` goal within noise (±${fmt(COMPARE_NOISE * 100)} %, what --compare resolves) by the CPU per request, which other work on the machine moves less than req/s: ${within(one.cpuRatio) ? 'met' : 'NOT met'}`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
}

async function dropSchema(schema) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

ensureBuilt();
ensureWrk(log);
const started = Date.now();
const referenceRoot = COMPARE ? buildReference(COMPARE) : undefined;
const all = [];
try {
  for (const store of STORES) {
    if (store === 'postgres' && !process.env.BENCH_DATABASE_URL) {
      log('[postgres] skipped: set BENCH_DATABASE_URL=postgres://user@host:port/db to run it');
      continue;
    }
    all.push(await runStore(store));
  }
} finally {
  if (referenceRoot) removeReference(referenceRoot);
}
log(`bench finished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(all, null, 2));
