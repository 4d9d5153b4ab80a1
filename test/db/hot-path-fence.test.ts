import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const sources = (readdirSync(SRC, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((path) => path.endsWith('.ts'))
  .map((path) => ({ path: relative(SRC, join(SRC, path)).split('\\').join('/'), text: readFileSync(join(SRC, path), 'utf8') }));

it('keeps fixed statements inside repositories and src/db (no route or rules file builds or runs one)', () => {
  const users = sources.filter(({ text }) => /\bfixedStatement\s*[<(]|fixed-statement\.js'/.test(text)).map(({ path }) => path);
  expect(users.length).toBeGreaterThan(0);
  expect(users.filter((path) => !path.startsWith('db/') && !path.endsWith('/repository.ts'))).toEqual([]);
});

it('imports no migration at run time outside the migrations (what they froze lives in src/db/frozen)', () => {
  const importers = sources.filter(({ text }) => /from '[^']*migrations\/\d{4}_[^']*'/.test(text)).map(({ path }) => path);
  expect(importers.filter((path) => !path.startsWith('db/migrations/'))).toEqual([]);
});
