import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Compiles src/ to dist/ with the project's TypeScript when dist/ is missing or stale. */
export function ensureBuilt() {
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
