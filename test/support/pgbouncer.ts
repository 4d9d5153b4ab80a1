import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { RUN_VARIABLE } from './stores.js';

/*
 * A real PgBouncer (the Debian package's /usr/sbin/pgbouncer) in front of the test PostgreSQL server,
 * as docs/operations.md "PgBouncer" configures it: transaction pooling, a small server pool per
 * database. Each scenario gets a database of its own (freshDatabase), reached through PgBouncer by
 * name with no `schema` parameter: the app then runs exactly as in production, in the database's
 * default schema.
 */

export const PGBOUNCER = '/usr/sbin/pgbouncer';

/** How long PgBouncer may take to listen, and to exit once told to. */
const START_MS = 10_000;
const STOP_MS = 5_000;

export interface PgBouncerOptions {
  /** The PostgreSQL server behind it: TEST_DATABASE_URL (its host, port and user are used). */
  serverUrl: string;
  poolMode?: 'session' | 'transaction' | 'statement';
  /** Server connections per database and user (PgBouncer's default_pool_size). */
  poolSize?: number;
  /** Startup parameters PgBouncer drops instead of refusing the client (ignore_startup_parameters). */
  ignoreStartupParameters?: string[];
}

export interface PgBouncer {
  port: number;
  /** A DATABASE_URL reaching `database` through PgBouncer. */
  url(database: string): string;
  /** Answers a command of PgBouncer's admin console (`SHOW POOLS`, `SHOW STATS`, …) as rows. */
  show(command: string): Promise<Array<Record<string, unknown>>>;
  /** Everything PgBouncer logged so far. */
  log(): string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Starts PgBouncer in the foreground on a free loopback port and waits until it answers. */
export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const server = new URL(options.serverUrl);
  const user = decodeURIComponent(server.username) || 'postgres';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-pgbouncer-'));
  // PgBouncer refuses to run as root: as root it is started with `-u postgres`, which must read the
  // files and write its log in this folder.
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const logfile = path.join(dir, 'pgbouncer.log');
  const ini = [
    '[databases]',
    // Any database name the client asks for, on the same server under the same name.
    `* = host=${server.hostname} port=${server.port || '5432'}`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    "unix_socket_dir = ''",
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'userlist.txt')}`,
    `admin_users = ${user}`,
    `pool_mode = ${options.poolMode ?? 'transaction'}`,
    `default_pool_size = ${options.poolSize ?? 3}`,
    'max_client_conn = 500',
    `ignore_startup_parameters = ${(options.ignoreStartupParameters ?? []).join(',')}`,
    `logfile = ${logfile}`,
    `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'pgbouncer.ini'), ini, { mode: 0o644 });
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });

  const asRoot = process.getuid?.() === 0;
  const child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => (fs.existsSync(logfile) ? fs.readFileSync(logfile, 'utf8') : stderr);
  const url = (database: string) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`;
  const bouncer: PgBouncer = {
    port,
    url,
    show: async (command) => {
      const client = new pg.Client({ connectionString: url('pgbouncer') });
      await client.connect();
      try {
        return (await client.query<Record<string, unknown>>(command)).rows;
      } finally {
        await client.end();
      }
    },
    log,
    stop: () => stop(child, exited),
  };
  try {
    await untilAnswering(bouncer, child);
  } catch (error) {
    await bouncer.stop();
    throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${log()}`);
  }
  return bouncer;
}

async function untilAnswering(bouncer: PgBouncer, child: ChildProcess): Promise<void> {
  const end = Date.now() + START_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`it exited with ${child.exitCode}`);
    try {
      await bouncer.show('SHOW VERSION');
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
  await exited;
  clearTimeout(timer);
}

/*
 * Databases `timetrack_pgbouncer_<run>_<random>`, <run> as in the schemas of test/support/stores.ts:
 * dropped by their scenario's end, and those of runs started hours ago swept at the next start.
 */
const DATABASE = /^timetrack_pgbouncer_(\d+)_[0-9a-f]+$/;
const STALE_AFTER_SECONDS = 6 * 60 * 60;

export interface TestDatabase {
  name: string;
  drop(): Promise<void>;
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database on the PostgreSQL server (directly, not through PgBouncer). */
export async function freshDatabase(serverUrl: string): Promise<TestDatabase> {
  const run = process.env[RUN_VARIABLE] ?? String(Math.floor(Date.now() / 1000));
  const name = `timetrack_pgbouncer_${run}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like 'timetrack\\_pgbouncer\\_%'");
    const cutoff = Date.now() / 1000 - STALE_AFTER_SECONDS;
    for (const { datname } of rows) {
      const started = DATABASE.exec(datname)?.[1];
      if (started !== undefined && Number(started) < cutoff) await client.query(`drop database if exists ${datname} with (force)`);
    }
    await client.query(`create database ${name}`);
  });
  // WITH (FORCE) ends the connections PgBouncer still keeps open to it.
  return { name, drop: () => onServer(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined) };
}
