import { Writable } from 'node:stream';
import { buildApp, type Config, loadConfig } from '../support/src.js';
import type { OperationStats } from './client.js';
import { Fuzzer, parseArgs, type FuzzReport } from './engine.js';

/** Columns of the table; every figure but `sent` and `2xx` (both informational) must be 0. */
const COLUMNS: [keyof OperationStats, string][] = [
  ['sent', 'sent'],
  ['ok', '2xx'],
  ['5xx', '5xx'],
  ['undocumented', 'undocumented'],
  ['schema', 'schema'],
  ['acceptedInvalid', 'accepted invalid'],
  ['consistency', 'read-after-write'],
  ['unexplained', 'unexplained 422'],
];

export const FAILING: (keyof OperationStats)[] = ['5xx', 'undocumented', 'schema', 'acceptedInvalid', 'consistency', 'unexplained'];

export const failures = (stats: OperationStats) => FAILING.reduce((sum, key) => sum + stats[key], 0);

export function formatReport(report: FuzzReport): string {
  const rows = [
    ['operation', ...COLUMNS.map(([, title]) => title)],
    ...report.operations.filter((o) => o.stats.sent > 0).map((o) => [o.operationId, ...COLUMNS.map(([key]) => String(o.stats[key]))]),
    ['TOTAL', ...COLUMNS.map(([key]) => String(report.totals[key]))],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const out = [line(rows[0]), rule, ...rows.slice(1, -1).map(line), rule, line(rows[rows.length - 1])];
  out.push('', `seed ${report.seed}, ${report.runs} valid + ${report.runs} invalid generated requests per operation` +
    (report.skipped ? `, ${report.skipped} cases skipped (fixture set-up failed)` : ''));
  out.push(`unexplained rejections of valid inputs: ${report.totals.unexplained}`);
  if (report.findings.length > 0) {
    out.push('', 'Findings (at most 5 per operation and check):');
    for (const f of report.findings) {
      out.push(`- [${f.check}] ${f.operationId}: ${f.detail}`, `    request:  ${f.request}`);
      if (f.response) out.push(`    response: ${f.response}`);
    }
  }
  return out.join('\n');
}

/** `npm run fuzz -- --runs N [--seed S] [--database URL] [--only operationId,…]`: exit 1 on any finding. */
export async function main(argv: string[]): Promise<number> {
  const options = parseArgs(argv);
  const config: Config = {
    ...loadConfig({}),
    databaseUrl: options.database,
    baseDomain: 'fuzz.test',
    publicUrl: 'http://fuzz.test:3000',
    logLevel: 'error',
    rateLimit: { perAddressPerMinute: 1_000_000_000, perTokenPerMinute: 1_000_000_000 },
    redisUrl: undefined,
  };
  // Unexpected errors are logged by the app: keep them for the end, not interleaved with the table.
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = await buildApp({ config, logStream });
  const started = Date.now();
  try {
    const fuzzer = await Fuzzer.create(app);
    process.stderr.write(`fuzzing ${fuzzer.operations.length} operations on ${app.store.dialect}, ${options.runs} runs each, seed ${options.seed}\n`);
    const report = await fuzzer.run({
      ...options,
      onOperation: (op, stats) => process.stderr.write(`  ${op.operationId}: ${stats.sent} sent, ${failures(stats)} findings\n`),
    });
    process.stdout.write(`${formatReport(report)}\n`);
    process.stdout.write(`\n${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    if (logs.length > 0) {
      // The server's own account of its 5xx: distinct error messages, most frequent first.
      const messages = new Map<string, number>();
      for (const line of logs) {
        let message = line.trim();
        try {
          const entry = JSON.parse(line);
          message = String(entry.err?.message ?? entry.msg ?? message);
        } catch {
          // not JSON: keep the line
        }
        message = message.replace(/\d{6,}/g, 'N').slice(0, 300);
        messages.set(message, (messages.get(message) ?? 0) + 1);
      }
      process.stdout.write(`\n${logs.length} error log lines:\n`);
      for (const [message, count] of [...messages].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${count} × ${message}\n`);
    }
    return failures(report.totals) === 0 ? 0 : 1;
  } finally {
    await app.close();
  }
}
