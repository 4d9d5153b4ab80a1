// The cost of one password check alone, as the service makes it (its own module and parameters), run
// by the caller on the server's core: the sign-in case compares a whole sign-in against it.
// Input: the number of checks; output: one JSON line of their times and their mean CPU time (all
// of the process's threads: the check runs on libuv's pool), in milliseconds.
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { hashPassword, passwordMatches } from '../dist/areas/access/sign-in/password/password-hashing.js';

const runs = Number(process.argv[2] ?? 20);
const password = 'correct horse battery staple';
const digest = await hashPassword(password);
await passwordMatches(digest, password);
const times = [];
const cpuBefore = process.cpuUsage();
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  if (!(await passwordMatches(digest, password))) throw new Error('the password does not match its own digest');
  times.push(performance.now() - started);
}
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(JSON.stringify({ times, cpuMs: (cpu.user + cpu.system) / 1000 / runs }) + '\n');
