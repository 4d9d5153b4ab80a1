import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachStore, request, ROOT, sharedDatabaseUrl, startServer } from '../support/processes.js';
import { loadConfig } from '../support/src.js';

/*
 * docs/operations.md, "Containers" and "Install as a systemd service". Containers cannot run on our CI
 * machines: the Dockerfile, compose.yaml and deploy/timetrack.service are read here, and every command
 * they run must be one the tested install runs (the README's `npm ci && npm start`, CI's .ci/run).
 */

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/* ---------- a Dockerfile's instructions ---------- */

interface Instruction {
  keyword: string;
  args: string;
}

function dockerfileInstructions(text: string): Instruction[] {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (pending === '' && /^\s*(#|$)/.test(line)) continue;
    if (line.endsWith('\\')) pending += line.slice(0, -1) + ' ';
    else {
      logical.push(pending + line);
      pending = '';
    }
  }
  expect(pending).toBe('');
  return logical.map((line) => {
    const match = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!match) throw new Error(`not a Dockerfile instruction: ${line}`);
    return { keyword: match[1].toUpperCase(), args: match[2].trim().replace(/\s+/g, ' ') };
  });
}

/** The stages, each the instructions from its FROM to the next. */
function stagesOf(instructions: Instruction[]): Instruction[][] {
  const stages: Instruction[][] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)!.push(instruction);
  }
  return stages;
}

const argsOf = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword).map((i) => i.args);

/** An exec-form command (`["node", "x"]`) as its arguments. */
function execForm(args: string): string[] {
  expect(args.startsWith('[')).toBe(true);
  return JSON.parse(args) as string[];
}

/* ---------- the subset of YAML compose.yaml is written in ---------- */

type Yaml = string | Yaml[] | { [key: string]: Yaml };

function yamlScalar(text: string): Yaml {
  if (text.startsWith('"') || text.startsWith('[')) return JSON.parse(text) as Yaml;
  if (text === '{}') return {};
  return text;
}

/** Block maps and lists by two-space indentation, scalars plain or double-quoted, flow lists in JSON. */
function parseYaml(text: string): Yaml {
  const lines = text
    .split('\n')
    .filter((line) => !/^\s*(#|$)/.test(line))
    .map((line) => ({ indent: line.length - line.trimStart().length, content: line.trim() }));
  let at = 0;
  const block = (indent: number): Yaml => {
    if (lines[at].content.startsWith('- ')) {
      const list: Yaml[] = [];
      while (at < lines.length && lines[at].indent === indent && lines[at].content.startsWith('- ')) list.push(yamlScalar(lines[at++].content.slice(2)));
      return list;
    }
    const map: { [key: string]: Yaml } = {};
    while (at < lines.length && lines[at].indent === indent) {
      const match = /^([A-Za-z0-9_.-]+):(?: (.*))?$/.exec(lines[at].content);
      if (!match) throw new Error(`outside the YAML subset: ${lines[at].content}`);
      at++;
      if (match[2] !== undefined) map[match[1]] = yamlScalar(match[2]);
      else {
        expect(lines[at].indent).toBeGreaterThan(indent);
        map[match[1]] = block(lines[at].indent);
      }
    }
    return map;
  };
  const parsed = block(0);
  expect(at).toBe(lines.length);
  return parsed;
}

/* ---------- a systemd unit ---------- */

function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    const [key, ...value] = line.split('=');
    const name = `${section}.${key}`;
    settings.set(name, [...(settings.get(name) ?? []), value.join('=')]);
  }
  return settings;
}

/* ---------- the tested install ---------- */

/** Each command the images and the unit may run, and where the tested install runs the same. */
const TESTED_INSTALL: Record<string, { file: string; runs: string }> = {
  'npm ci': { file: '.ci/run', runs: 'npm ci --no-audit --no-fund' },
  // The same install without devDependencies: proved enough by "dist/ imports only dependencies" below.
  'npm ci --omit=dev': { file: '.ci/run', runs: 'npm ci --no-audit --no-fund' },
  // What `npm start` (bin/start.js) and every test run (test/support/global-setup.ts) do first.
  'node bin/ensure-built.js': { file: 'bin/start.js', runs: 'ensureBuilt();' },
  'node bin/start.js': { file: 'package.json', runs: '"start": "node bin/start.js"' },
  'pg_isready -h 127.0.0.1 -p 5432': { file: '.ci/run', runs: 'pg_isready -h 127.0.0.1 -p 5432' },
};
/** The one step of the image that the install on a machine does not need: the data volume's folder, owned by the user. */
const IMAGE_ONLY = 'mkdir -p /app/data && chown node:node /app/data';

function expectTested(command: string): void {
  const tested = TESTED_INSTALL[command];
  expect(tested, `"${command}" is not a command the tested install runs`).toBeDefined();
  expect(read(tested.file)).toContain(tested.runs);
}

/** The environment variables src/config.ts reads. */
const CONFIG_VARIABLES = new Set([...read('src/config.ts').matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]));

const dockerfile = stagesOf(dockerfileInstructions(read('Dockerfile')));
const [buildStage, runStage] = dockerfile;
const healthcheck = argsOf(runStage, 'HEALTHCHECK')[0] ?? '';
const healthcheckCommand = execForm(healthcheck.slice(healthcheck.indexOf('CMD ') + 4));

describe('Dockerfile', () => {
  it('has two stages: a build on node 20 with every dependency, and a slim node 20 run stage', () => {
    expect(dockerfile).toHaveLength(2);
    expect(argsOf(buildStage, 'FROM')).toEqual(['node:20-bookworm AS build']);
    expect(argsOf(runStage, 'FROM')).toEqual(['node:20-bookworm-slim']);
    expect(JSON.parse(read('package.json')).engines.node).toBe('>=20.19.0');
  });

  it('runs only commands of the tested install: npm ci and the build in the first stage, npm ci --omit=dev in the second', () => {
    expect(argsOf(buildStage, 'RUN')).toEqual(['npm ci', 'node bin/ensure-built.js']);
    expect(argsOf(runStage, 'RUN')).toEqual(['npm ci --omit=dev', IMAGE_ONLY]);
    for (const command of [...argsOf(buildStage, 'RUN'), ...argsOf(runStage, 'RUN')].filter((c) => c !== IMAGE_ONLY)) expectTested(command);
    const cmd = execForm(argsOf(runStage, 'CMD')[0]);
    expect(cmd).toEqual(['node', 'bin/start.js']);
    expectTested(cmd.join(' '));
  });

  it('runs as a non-root user with the data folder as a volume, on port 3000, in production, stopped with SIGTERM', () => {
    expect(argsOf(runStage, 'USER')).toEqual(['node']);
    expect(argsOf(runStage, 'WORKDIR')).toEqual(['/app']);
    expect(argsOf(runStage, 'VOLUME')).toEqual(['/app/data']);
    expect(argsOf(runStage, 'EXPOSE')).toEqual(['3000']);
    expect(argsOf(runStage, 'STOPSIGNAL')).toEqual(['SIGTERM']);
    expect(argsOf(runStage, 'ENV')).toEqual(['NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATABASE_URL=sqlite:data/timetrack.db']);
    // The built files come from the build stage, the dependencies from the production install.
    expect(argsOf(runStage, 'COPY').filter((args) => args.startsWith('--from=build'))).toContain('--from=build /app/dist ./dist');
    expect(argsOf(runStage, 'COPY').some((args) => args.includes('node_modules'))).toBe(false);
  });

  it('the built server imports only packages of "dependencies" (what npm ci --omit=dev installs) and Node\'s own', () => {
    const { dependencies } = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    const imported = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (full !== path.join(ROOT, 'dist/web')) walk(full);
        } else if (entry.name.endsWith('.js')) {
          const code = fs.readFileSync(full, 'utf8');
          for (const m of code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'".][^'"]*)['"]/gm)) imported.add(m[1]);
          for (const m of code.matchAll(/^\s*import\s+['"]([^'".][^'"]*)['"]/gm)) imported.add(m[1]);
          for (const m of code.matchAll(/\bimport\(\s*['"]([^'".][^'"]*)['"]\s*\)/g)) imported.add(m[1]);
        }
      }
    };
    walk(path.join(ROOT, 'dist'));
    expect(imported.size).toBeGreaterThan(10);
    const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
    const outside = [...imported].filter((s) => !s.startsWith('node:') && !builtinModules.includes(s) && !(packageOf(s) in dependencies));
    expect(outside).toEqual([]);
  });

  it('checks health with node against /readyz (no curl in the slim image)', () => {
    expect(healthcheck).toMatch(/^--interval=10s --timeout=3s --start-period=30s --retries=3 CMD \[/);
    expect(healthcheckCommand[0]).toBe('node');
    expect(healthcheckCommand[2]).toContain('/readyz');
  });
});

for (const store of eachStore) {
  describe(`the image's health check [${store.name}]`, () => {
    const runCheck = (port: number) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(healthcheckCommand[0] === 'node' ? process.execPath : healthcheckCommand[0], healthcheckCommand.slice(1), {
          env: { ...process.env, PORT: String(port) },
          stdio: 'ignore',
        });
        child.on('exit', (code) => resolve(code));
      });

    it('passes (exit 0) while the server is ready, fails (exit 1) once shutdown has begun and when nothing listens', { timeout: 120_000 }, async () => {
      const server = await startServer({ DATABASE_URL: sharedDatabaseUrl(store), BOOTSTRAP: 'false', SHUTDOWN_DRAIN_MS: '600000' }, { startTimeoutMs: 90_000 });
      try {
        expect(await runCheck(server.port)).toBe(0);
        server.child.kill('SIGTERM');
        let status = 200;
        for (let i = 0; i < 400 && status === 200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          status = (await request(server.port, 'GET', '/readyz')).status;
        }
        expect(status).toBe(503);
        expect(await runCheck(server.port)).toBe(1);
        server.child.kill('SIGTERM'); // a second signal ends the drain
        expect(await server.exited).toBe(0);
        expect(await runCheck(server.port)).toBe(1);
      } finally {
        server.child.kill('SIGKILL');
      }
    });
  });
}

describe('compose.yaml', () => {
  const compose = parseYaml(read('compose.yaml')) as any;

  it('runs timetrack built from the Dockerfile on PostgreSQL 16, with Redis under the profile "redis"', () => {
    expect(Object.keys(compose.services)).toEqual(['timetrack', 'postgres', 'redis']);
    const { timetrack, postgres, redis } = compose.services;
    expect(timetrack.build).toBe('.');
    expect(timetrack.command).toBeUndefined(); // the image's CMD: node bin/start.js
    expect(timetrack.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(timetrack.volumes).toEqual(['timetrack-data:/app/data']);
    expect(timetrack.ports).toEqual(['3000:3000']);
    expect(postgres.image).toBe('postgres:16');
    expect(redis.image).toBe('redis:7');
    expect(redis.profiles).toEqual(['redis']);
    expect(Object.keys(compose.volumes)).toEqual(['timetrack-data', 'postgres-data']);
  });

  it('sets only variables the server reads, DATABASE_URL at the postgres service', () => {
    const environment = compose.services.timetrack.environment as Record<string, string>;
    for (const name of Object.keys(environment)) expect(CONFIG_VARIABLES, name).toContain(name);
    expect(environment.DATABASE_URL).toBe('postgres://timetrack:${POSTGRES_PASSWORD:-timetrack}@postgres:5432/timetrack');
    expect(compose.services.postgres.environment).toMatchObject({ POSTGRES_USER: 'timetrack', POSTGRES_DB: 'timetrack' });
  });

  it('checks PostgreSQL with the pg_isready CI runs, and gives timetrack longer to stop than the drain and the longest request', () => {
    const [form, ...command] = compose.services.postgres.healthcheck.test as string[];
    expect(form).toBe('CMD');
    expect(command.slice(0, 5).join(' ')).toBe('pg_isready -h 127.0.0.1 -p 5432');
    expectTested(command.slice(0, 5).join(' '));
    const defaults = loadConfig({});
    expect(compose.services.timetrack.stop_grace_period).toBe('45s');
    expect(45_000).toBeGreaterThan(defaults.shutdownDrainMs + defaults.requestTimeoutMs);
  });
});

describe('deploy/timetrack.service', () => {
  const unit = unitSettings(read('deploy/timetrack.service'));
  const one = (key: string) => {
    expect(unit.get(key), key).toHaveLength(1);
    return unit.get(key)![0];
  };

  it('starts what npm start runs, as the user timetrack, from the environment file, and restarts on failure', () => {
    expect(one('Service.ExecStart')).toBe('/usr/bin/node bin/start.js');
    expectTested(one('Service.ExecStart').replace('/usr/bin/node', 'node'));
    expect(one('Service.User')).toBe('timetrack');
    expect(one('Service.WorkingDirectory')).toBe('/opt/timetrack');
    expect(one('Service.EnvironmentFile')).toBe('/etc/timetrack/env');
    expect(one('Service.Restart')).toBe('on-failure');
    expect(one('Install.WantedBy')).toBe('multi-user.target');
  });

  it('stops with SIGTERM and waits longer than the drain and the longest request', () => {
    expect(one('Service.KillSignal')).toBe('SIGTERM');
    const defaults = loadConfig({});
    expect(one('Service.TimeoutStopSec')).toBe('45s');
    expect(45_000).toBeGreaterThan(defaults.shutdownDrainMs + defaults.requestTimeoutMs);
  });

  it('is hardened and may write only the state folder, where its database and secret key are', () => {
    for (const [key, value] of [
      ['NoNewPrivileges', 'true'],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'true'],
      ['PrivateTmp', 'true'],
      ['StateDirectory', 'timetrack'],
      ['ReadWritePaths', '/var/lib/timetrack'],
    ]) {
      expect(one(`Service.${key}`), key).toBe(value);
    }
    const environment = Object.fromEntries(unit.get('Service.Environment')!.map((line) => line.split(/=(.*)/s).slice(0, 2)));
    for (const name of Object.keys(environment)) expect(CONFIG_VARIABLES, name).toContain(name);
    expect(environment).toEqual({
      NODE_ENV: 'production',
      DATABASE_URL: 'sqlite:/var/lib/timetrack/timetrack.db',
      SECRET_KEY_FILE: '/var/lib/timetrack/secret-key',
    });
  });

  // Only where systemd-analyze exists: it is the judge of a unit file, where this machine has one.
  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  it.runIf(analyze)('passes systemd-analyze verify', () => {
    expect(execFileSync('systemd-analyze', ['verify', path.join(ROOT, 'deploy/timetrack.service')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).toBe('');
  });
});
