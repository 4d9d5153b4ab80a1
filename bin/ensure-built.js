import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(dir, skip = new Set()) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (skip.has(full)) continue;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Compiles src/ to dist/ with the project's TypeScript when dist/ is missing or stale, then builds
 * the web app into dist/web when web/ or src/ (its API types come from the served document) changed.
 */
export function ensureBuilt() {
  buildServer();
  buildWebApp();
}

function buildServer() {
  const stamp = path.join(root, 'dist', '.tsbuildinfo');
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (built >= newestMtime(path.join(root, 'src'))) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  process.stderr.write('timetrack: building...\n');
  // Compiler messages go to stderr: stdout is reserved for what the CLI prints.
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
      stdio: ['ignore', process.stderr, 'inherit'],
      cwd: root,
    });
  } catch (error) {
    // Exit status 2: type errors were reported but the JavaScript was written (the type-check is CI's job).
    if (error.status !== 2) throw error;
  }
  fs.utimesSync(stamp, new Date(), new Date());
}

/** The web app's sources, less what its build writes there (the generated API types). */
const WEB_OUTPUTS = new Set([path.join(root, 'web/src/api/schema.d.ts')]);

function buildWebApp() {
  const stamp = path.join(root, 'dist', 'web', '.built');
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  const sources = Math.max(newestMtime(path.join(root, 'web'), WEB_OUTPUTS), newestMtime(path.join(root, 'src')));
  if (built >= sources) return;
  process.stderr.write('timetrack: building the web app...\n');
  // Over its budget or failing to compile, the build fails, and so does the start.
  execFileSync(process.execPath, [path.join(root, 'scripts/build-web.mjs')], { stdio: ['ignore', process.stderr, 'inherit'], cwd: root });
  fs.writeFileSync(stamp, '');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureBuilt();
