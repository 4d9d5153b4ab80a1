import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { tempSqliteFile } from './sqlite-files.js';
import { testStores, type TestStore } from './stores.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh DATABASE_URL that several processes can share: a temporary SQLite file, or a PostgreSQL schema. */
export function sharedDatabaseUrl(store: TestStore): string {
  if (store.name === 'postgres') return store.freshUrl();
  return `sqlite:${tempSqliteFile()}`;
}

export const eachStore = testStores;

/** Runs a script of this repository (`node <file> …`) to completion, with LOG_LEVEL=warn unless `env` says otherwise. */
export function runScript(file: string, args: string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, file), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the operator CLI (`node bin/timetrack.js …`) to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<Finished> {
  return runScript('bin/timetrack.js', args, env);
}

export interface RunningServer {
  child: ChildProcess;
  port: number;
  /** Everything the process printed on stdout so far. */
  output(): string;
  exited: Promise<number | null>;
}

/**
 * Starts `node bin/start.js` (what `npm start` runs) on a free port and waits until it listens.
 * `maxOpenFiles` runs it under that file-descriptor limit (`ulimit -n`, as a small host would have).
 */
export async function startServer(
  env: Record<string, string>,
  options: { maxOpenFiles?: number; startTimeoutMs?: number } = {},
): Promise<RunningServer> {
  const command = [process.execPath, path.join(ROOT, 'bin/start.js')];
  if (options.maxOpenFiles !== undefined) command.unshift('/bin/sh', '-c', `ulimit -n ${options.maxOpenFiles} && exec "$0" "$@"`);
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    // No drain unless a test asks for one: SIGTERM closes the listener at once, as the shutdown tests expect.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    // A server that does not start in time is stopped, never left running behind the test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${stdout}`));
    }, options.startTimeoutMs ?? 20_000);
    child.stdout!.on('data', () => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${stdout}`)));
  });
  return { child, port, output: () => stdout, exited };
}

/** One HTTP request to a server on this machine, with a Host header of our choosing. */
export function request(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          parsed = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A port no one listens on now, on the loopback address. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
