#!/usr/bin/env node
// Fails CI when the PostgreSQL half of the suite did not run: every behaviour test must pass on both stores.
import fs from 'node:fs';

const file = process.argv[2] ?? '.vitest-results.json';
const results = JSON.parse(fs.readFileSync(file, 'utf8'));
const count = (store) =>
  results.testResults
    .flatMap((suite) => suite.assertionResults)
    .filter((test) => test.status === 'passed' && test.fullName.includes(`[${store}]`)).length;
const all = results.testResults.flatMap((suite) => suite.assertionResults);
const tally = (status) => all.filter((test) => test.status === status).length;
const sqlite = count('sqlite');
const postgres = count('postgres');
console.log(`behaviour tests passed: sqlite ${sqlite}, postgres ${postgres}`);
if (postgres === 0 || postgres !== sqlite) {
  console.error('The PostgreSQL half did not run in full: set TEST_DATABASE_URL to a reachable PostgreSQL.');
  process.exit(1);
}
// The plain closing line CI reads.
console.log(`tests: ${tally('passed')} passed, ${tally('failed')} failed, ${tally('skipped') + tally('pending') + tally('todo')} skipped`);
