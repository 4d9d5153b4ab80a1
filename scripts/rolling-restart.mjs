#!/usr/bin/env node
/*
 * A rolling restart behind haproxy under load (docs/operations.md, "Rolling restart").
 *
 * Starts N instances of the real server (`node bin/start.js`, what `npm start` runs) on one store,
 * each on a port of its own, and haproxy in front of them with a health check on GET /readyz. Two
 * loops drive a steady load of writes (POST /api/activities) and reads (GET /api/activities/{id})
 * through haproxy while each instance in turn is stopped with SIGTERM, waited for, started again and
 * waited for until haproxy counts it up. Then every write that was acknowledged is read back by id.
 *
 *   node scripts/rolling-restart.mjs [--database URL] [--instances N] [--drain-ms MS]
 *                                    [--time-limit-ms MS] [--keep]
 *
 * --database (or DATABASE_URL): a PostgreSQL URL, or `sqlite:<file>` for instances on one host;
 * unset, a temporary SQLite file. --drain-ms is the instances' SHUTDOWN_DRAIN_MS (default 3000: the
 * health check below takes an instance out within about a second). --time-limit-ms bounds the
 * whole run (default 150000): past it every process is killed and the exit status is 2. --keep
 * leaves the temporary folder (haproxy.cfg, each instance's output) in place.
 *
 * Prints one line of JSON: {requests, errors, writesAcknowledged, writesFound, lost, restarts,
 * firstErrors, folder}. Exit status 1 when an answer was an error or an acknowledged write is
 * missing (or nothing was acknowledged: the run proved nothing), 2 when the run could not be made.
 */
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOOPS = 2;
const PACE_MS = 5;
const REQUEST_TIMEOUT_MS = 15_000;
const START_TIMEOUT_MS = 90_000;
const UP_TIMEOUT_MS = 30_000;

class SetupError extends Error {}

const began = Date.now();
/** A line of progress on stderr: stdout carries the summary alone. */
const note = (text) => process.stderr.write(`rolling-restart: ${((Date.now() - began) / 1000).toFixed(1)} s: ${text}\n`);

function parseArguments(argv) {
  const options = { database: process.env.DATABASE_URL, instances: 3, drainMs: 3000, timeLimitMs: 150_000, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new SetupError(`${name} needs a value`);
      return argv[++i];
    };
    const count = (min) => {
      const text = value();
      const n = Number(text);
      if (!Number.isInteger(n) || n < min) throw new SetupError(`${name} must be a whole number ≥ ${min}, got "${text}"`);
      return n;
    };
    if (name === '--database') options.database = value();
    else if (name === '--instances') options.instances = count(2);
    else if (name === '--drain-ms') options.drainMs = count(0);
    else if (name === '--time-limit-ms') options.timeLimitMs = count(1);
    else if (name === '--keep') options.keep = true;
    else throw new SetupError(`unknown option "${name}"`);
  }
  return options;
}

/* ---------- processes ---------- */

const children = new Set();

/** Spawns a process whose output goes to a file of the run's folder; `exited` resolves with its exit code. */
function launch(command, args, env, logFile) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  children.add(child);
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? signal);
    });
    child.on('error', (error) => {
      children.delete(child);
      resolve(error.message);
    });
  });
  return { child, exited };
}

function killAll() {
  for (const child of children) child.kill('SIGKILL');
}

function haproxyBinary() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat('/usr/sbin', '/usr/local/sbin')) {
    const file = path.join(dir, 'haproxy');
    if (dir && fs.existsSync(file)) return file;
  }
  throw new SetupError('haproxy was not found on PATH nor in /usr/sbin: install it (apt-get install haproxy)');
}

/* ---------- HTTP ---------- */

/** One request on a connection of its own; never rejects: a failure is {status: 0, error}. */
function call(port, method, urlPath, headers = {}, body) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        agent: false,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let parsed;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            parsed = text;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text });
        });
        res.on('error', (error) => resolve({ status: 0, error: error.code ?? error.message }));
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve({ status: 0, error: error.code ?? error.message }));
    req.end(payload);
  });
}

/** Asks until `check` holds, every 100 ms, for at most `ms`. */
async function waitFor(what, ms, check) {
  const deadline = Date.now() + ms;
  for (let i = 0; Date.now() < deadline && i < ms / 50; i++) {
    if (await check()) return;
    await sleep(100);
  }
  throw new SetupError(`${what} did not happen within ${ms} ms`);
}

/* ---------- haproxy ---------- */

function haproxyConfig({ frontPort, statsPort, ports }) {
  return [
    'global',
    '  maxconn 512',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  timeout check 2s',
    // A request is tried again only when no connection could be made (nothing was sent), on another
    // server: a request that reached a server is never sent twice.
    '  retry-on conn-failure',
    '  retries 3',
    '  option redispatch 1',
    // Each request on a connection of its own to the server, so no request is sent on a kept-alive
    // connection at the moment the server closes it.
    '  option http-server-close',
    '',
    'frontend timetrack',
    `  bind 127.0.0.1:${frontPort}`,
    '  default_backend instances',
    '',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 250ms fall 2 rise 1',
    ...ports.map((port, i) => `  server i${i + 1} 127.0.0.1:${port} check`),
    '',
    'listen stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

/** haproxy's view of one server ("UP", "DOWN", ...), from its statistics as CSV. */
async function serverStatus(statsPort, server) {
  const res = await call(statsPort, 'GET', '/stats;csv');
  if (res.status !== 200) return undefined;
  const [header, ...rows] = res.text.replace(/^# /, '').split('\n');
  const columns = header.split(',');
  const row = rows.map((line) => line.split(',')).find((cells) => cells[0] === 'instances' && cells[1] === server);
  return row?.[columns.indexOf('status')];
}

/* ---------- the run ---------- */

async function run(options, folder) {
  const databaseUrl = options.database ?? `sqlite:${path.join(folder, 'timetrack.db')}`;
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    BASE_DOMAIN: 'localhost',
    BOOTSTRAP: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    SHUTDOWN_DRAIN_MS: String(options.drainMs),
    // Every instance encrypts with the same secret; the load comes from one token and one address.
    SECRET_KEY: process.env.SECRET_KEY ?? randomBytes(32).toString('hex'),
    RATE_LIMIT_PER_ADDRESS: '1000000000',
    RATE_LIMIT_PER_TOKEN: '1000000000',
  };
  delete env.REDIS_URL;

  const domain = `rolling${randomBytes(4).toString('hex')}`;
  const cli = launch(
    process.execPath,
    [path.join(ROOT, 'bin/timetrack.js'), 'workspace', 'create', '--domain', domain, '--name', 'Rolling restart', '--admin-email', 'rolling@example.com'],
    env,
    path.join(folder, 'workspace.json'),
  );
  if ((await cli.exited) !== 0) {
    throw new SetupError(`timetrack workspace create failed:\n${fs.readFileSync(path.join(folder, 'workspace.json'), 'utf8')}`);
  }
  const created = fs.readFileSync(path.join(folder, 'workspace.json'), 'utf8').split('\n').find((line) => line.startsWith('{"domain"'));
  const { apiKey } = JSON.parse(created);
  const headers = { host: `${domain}.localhost`, authorization: `Bearer ${apiKey}`, accept: 'application/json' };

  const ports = [];
  for (let i = 0; i < options.instances; i++) ports.push(await freePort());
  const frontPort = await freePort();
  const statsPort = await freePort();

  const instances = ports.map((port, i) => ({ name: `i${i + 1}`, port, process: undefined }));
  const start = async (instance) => {
    instance.process = launch(process.execPath, [path.join(ROOT, 'bin/start.js')], { ...env, PORT: String(instance.port), HOST: '127.0.0.1' }, path.join(folder, `${instance.name}.log`));
    const exitedEarly = instance.process.exited.then((code) => {
      throw new SetupError(`instance ${instance.name} exited with ${code} while starting: see ${path.join(folder, `${instance.name}.log`)}`);
    });
    exitedEarly.catch(() => {}); // once started, its exit is the restart's business
    await Promise.race([waitFor(`/readyz 200 on ${instance.name}`, START_TIMEOUT_MS, async () => (await call(instance.port, 'GET', '/readyz')).status === 200), exitedEarly]);
  };
  // One after another: the first applies any pending migration, the machine is not flooded.
  for (const instance of instances) await start(instance);
  note(`${instances.length} instances ready on ports ${ports.join(', ')}`);

  const configFile = path.join(folder, 'haproxy.cfg');
  fs.writeFileSync(configFile, haproxyConfig({ frontPort, statsPort, ports }));
  const haproxy = launch(haproxyBinary(), ['-f', configFile, '-db'], env, path.join(folder, 'haproxy.log'));
  for (const instance of instances) {
    await waitFor(`haproxy counting ${instance.name} up`, UP_TIMEOUT_MS, async () => (await serverStatus(statsPort, instance.name)) === 'UP');
  }

  // The load: each loop writes an activity, then reads back the one it wrote last.
  const tally = { requests: 0, errors: 0, firstErrors: [] };
  const acknowledged = new Map();
  const failed = (what, res) => {
    tally.errors++;
    if (tally.firstErrors.length < 5) tally.firstErrors.push(`${what}: ${res.status === 0 ? res.error : `${res.status} ${res.text.slice(0, 200)}`}`);
  };
  let loading = true;
  let slot = 0;
  const loop = async (n) => {
    let last;
    for (let i = 0; loading && i < 1_000_000; i++) {
      // Each write its own minute of 2026: no two overlap.
      const startedAt = new Date(Date.UTC(2026, 0, 1) + slot++ * 60_000);
      const body = { name: `rolling ${n}-${i}`, startedAt: startedAt.toISOString(), endedAt: new Date(startedAt.getTime() + 30_000).toISOString() };
      const write = await call(frontPort, 'POST', '/api/activities', headers, body);
      tally.requests++;
      if (write.status === 200 && typeof write.body?.id === 'string') {
        acknowledged.set(write.body.id, body.name);
        last = write.body.id;
      } else failed(`POST /api/activities`, write);
      await sleep(PACE_MS);
      if (last !== undefined) {
        const read = await call(frontPort, 'GET', `/api/activities/${last}`, headers);
        tally.requests++;
        if (read.status !== 200) failed(`GET /api/activities/${last}`, read);
      }
      await sleep(PACE_MS);
    }
  };
  const loops = Array.from({ length: LOOPS }, (_, n) => loop(n));
  note(`haproxy on port ${frontPort} counts every instance up; the load runs`);

  const restarts = [];
  try {
    await sleep(1_000);
    for (const instance of instances) {
      note(`${instance.name}: SIGTERM`);
      instance.process.child.kill('SIGTERM');
      const code = await Promise.race([instance.process.exited, sleep(options.drainMs + 60_000).then(() => 'did not exit')]);
      restarts.push({ instance: instance.name, exit: code });
      if (code !== 0) throw new SetupError(`instance ${instance.name} ended with ${code} after SIGTERM: see ${path.join(folder, `${instance.name}.log`)}`);
      note(`${instance.name}: exited ${code}; starting it again`);
      await start(instance);
      await waitFor(`haproxy counting ${instance.name} up again`, UP_TIMEOUT_MS, async () => (await serverStatus(statsPort, instance.name)) === 'UP');
      note(`${instance.name}: up again`);
    }
    await sleep(1_000);
  } finally {
    loading = false;
    await Promise.all(loops);
  }

  note(`load stopped after ${tally.requests} requests; reading back ${acknowledged.size} acknowledged writes`);
  // Every acknowledged write, read back by id (four at a time).
  let writesFound = 0;
  const ids = [...acknowledged.keys()];
  const missing = [];
  await Promise.all(
    Array.from({ length: 4 }, async (_, k) => {
      for (let i = k; i < ids.length; i += 4) {
        const res = await call(frontPort, 'GET', `/api/activities/${ids[i]}`, headers);
        if (res.status === 200 && res.body?.name === acknowledged.get(ids[i])) writesFound++;
        else missing.push(`${ids[i]}: ${res.status === 0 ? res.error : res.status}`);
      }
    }),
  );

  // A second SIGTERM ends an instance's drain: the run is over, nothing is routed to them any more.
  for (const instance of instances) instance.process.child.kill('SIGTERM');
  await sleep(100);
  for (const instance of instances) instance.process.child.kill('SIGTERM');
  await Promise.race([Promise.all(instances.map((instance) => instance.process.exited)), sleep(30_000)]);
  haproxy.child.kill('SIGTERM');
  await Promise.race([haproxy.exited, sleep(5_000)]);

  return {
    requests: tally.requests,
    errors: tally.errors,
    writesAcknowledged: acknowledged.size,
    writesFound,
    lost: acknowledged.size - writesFound,
    restarts,
    firstErrors: tally.firstErrors.concat(missing.slice(0, 5).map((line) => `missing ${line}`)),
  };
}

async function main() {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`rolling-restart: ${error.message}\n`);
    process.exit(2);
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-rolling-'));
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      killAll();
      process.exit(2);
    });
  }
  const limit = setTimeout(() => {
    killAll();
    process.stderr.write(`rolling-restart: the run took longer than ${options.timeLimitMs} ms; its files are in ${folder}\n`);
    process.exit(2);
  }, options.timeLimitMs);
  let summary;
  try {
    summary = await run(options, folder);
  } catch (error) {
    killAll();
    process.stderr.write(`rolling-restart: ${error instanceof SetupError ? error.message : error.stack}\nits files are in ${folder}\n`);
    process.exit(2);
  }
  clearTimeout(limit);
  const failed = summary.errors > 0 || summary.lost > 0 || summary.writesAcknowledged === 0;
  if (!options.keep && !failed) fs.rmSync(folder, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ ...summary, folder: options.keep || failed ? folder : undefined })}\n`);
  process.exit(failed ? 1 : 0);
}

await main();
