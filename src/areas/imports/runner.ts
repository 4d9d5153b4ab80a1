import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { deleteStagedEntries, findStalledImports, finishImport, NO_COUNTS } from './repository.js';
import { HEARTBEAT_MS, runImport, type RunContext } from './run.js';

/** The runner of each app, by its HTTP server (the one object the app and its plugins share): the metrics read its count. */
const runners = new WeakMap<object, ImportRunner>();

/** How many imports the app of this server runs now (0 before its imports' routes are registered). */
export const runningImportsOf = (server: object): number => runners.get(server)?.count ?? 0;

/** An import whose heartbeat has been silent this long is taken for stalled (its instance died). */
const STALLED_AFTER_MS = 5 * HEARTBEAT_MS;

/**
 * The imports running in one app (docs/rules.md §6 Imports): started in the background, stopped with
 * the app (each marked failed, nothing of it applied), and the imports of a dead process marked failed
 * by the living: those whose heartbeat stopped, checked at start and now and then. (Not every import
 * at start, even on SQLite: a CLI command opens the store beside a running server.)
 */
export class ImportRunner {
  private readonly running = new Map<string, { done: Promise<void>; stop: AbortController }>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    server: object,
  ) {
    runners.set(server, this);
  }

  get count(): number {
    return this.running.size;
  }

  start(context: Omit<RunContext, 'db' | 'config' | 'log'>, importId: string, filePath: string): void {
    const stop = new AbortController();
    const run = { db: this.db, config: this.config, log: this.log, ...context };
    const done = runImport(run, importId, filePath, stop.signal)
      .catch((error: unknown) => this.log.error({ err: error, importId }, 'import run failed'))
      .finally(() => {
        this.running.delete(importId);
        void rm(path.dirname(filePath), { recursive: true, force: true });
      });
    this.running.set(importId, { done, stop });
  }

  async open(): Promise<void> {
    const stalledBefore = () => new Date(Date.now() - STALLED_AFTER_MS).toISOString();
    await this.sweep(stalledBefore());
    this.sweeper = setInterval(() => void this.sweep(stalledBefore()).catch(() => undefined), STALLED_AFTER_MS / 2);
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const { stop } of this.running.values()) stop.abort();
    await Promise.all([...this.running.values()].map(({ done }) => done));
  }

  /** Marks failed the imports no process runs any more (whose heartbeat is older than `before`), and drops what they staged. */
  private async sweep(before: string): Promise<void> {
    for (const importId of await findStalledImports(this.db, before)) {
      if (this.running.has(importId)) continue;
      const stopped = await finishImport(this.db, importId, {
        status: 'failed',
        rows: 0,
        created: NO_COUNTS,
        skipped: 0,
        errorCount: 1,
        errors: [{ row: 0, column: null, code: 'interrupted', message: 'The server stopped during the import: nothing of it was applied. Run it again.' }],
        warnings: [],
      });
      if (stopped) this.log.warn({ importId }, 'import marked failed: the server that ran it stopped');
      await deleteStagedEntries(this.db, importId);
    }
  }
}
