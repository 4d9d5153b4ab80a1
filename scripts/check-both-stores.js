#!/usr/bin/env node
// Fails CI when the PostgreSQL half of the suite did not run: every behaviour test must pass on both
// stores. A test tagged with a store counts against the same test of the other store; one that a
// store skips on purpose (`it.runIf`, for a property only one store has) is excused on that store.
import fs from 'node:fs';

const file = process.argv[2] ?? '.vitest-results.json';
const results = JSON.parse(fs.readFileSync(file, 'utf8'));
const all = results.testResults.flatMap((suite) => suite.assertionResults);
const STORE = /\[(sqlite|postgres)\]/;

/** Per store: how many times each test (its name without the store tag) passed, and was skipped. */
const tally = { sqlite: { passed: new Map(), skipped: new Map() }, postgres: { passed: new Map(), skipped: new Map() } };
for (const test of all) {
  const store = STORE.exec(test.fullName)?.[1];
  if (!store) continue;
  const kind = test.status === 'passed' ? 'passed' : test.status === 'skipped' || test.status === 'pending' ? 'skipped' : null;
  if (!kind) continue;
  const name = test.fullName.replace(STORE, '');
  tally[store][kind].set(name, (tally[store][kind].get(name) ?? 0) + 1);
}

const missing = [];
for (const [store, other] of [['sqlite', 'postgres'], ['postgres', 'sqlite']]) {
  for (const [name, passed] of tally[store].passed) {
    const covered = (tally[other].passed.get(name) ?? 0) + (tally[other].skipped.get(name) ?? 0);
    if (covered < passed) missing.push(`${name} passed on ${store}, not on ${other}`);
  }
}
const count = (store) => [...tally[store].passed.values()].reduce((sum, n) => sum + n, 0);
const status = (wanted) => all.filter((test) => test.status === wanted).length;
console.log(`behaviour tests passed: sqlite ${count('sqlite')}, postgres ${count('postgres')}`);
if (count('postgres') === 0 || missing.length > 0) {
  for (const line of missing.slice(0, 20)) console.error(`  ${line}`);
  console.error('Not every behaviour test passed on both stores (when the PostgreSQL half is missing: set TEST_DATABASE_URL to a reachable PostgreSQL).');
  process.exit(1);
}
// The plain closing line CI reads.
console.log(`tests: ${status('passed')} passed, ${status('failed')} failed, ${status('skipped') + status('pending') + status('todo')} skipped`);
