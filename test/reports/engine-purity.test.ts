import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The report engine (src/areas/reports/engine/) is pure calculation: it takes data and answers data.
 * Its files import one another, the area's rules and schemas, lib/, the API's errors and luxon, and
 * nothing that reads a store, knows an actor or asks the policy (docs/architecture.md "reports/").
 */
const ENGINE = join('src', 'areas', 'reports', 'engine');
const ALLOWED = [/^\.\/[a-z-]+\.js$/, /^\.\.\/(rules|schemas)\.js$/, /^\.\.\/\.\.\/\.\.\/lib\/[a-z-]+\.js$/, /^\.\.\/\.\.\/\.\.\/domain\/errors\.js$/, /^luxon$/];

describe('the report engine', () => {
  it('imports no store, actor, policy, repository or other area', () => {
    const refused: string[] = [];
    for (const file of readdirSync(ENGINE).filter((name) => name.endsWith('.ts'))) {
      const text = readFileSync(join(ENGINE, file), 'utf8');
      for (const [, source] of text.matchAll(/\bfrom\s+'([^']+)'/g)) {
        if (!ALLOWED.some((allowed) => allowed.test(source))) refused.push(`${file}: ${source}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
