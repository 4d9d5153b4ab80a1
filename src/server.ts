import { setFlagsFromString } from 'node:v8';
import { buildApp } from './app.js';
import { batchedLogDestination } from './http/access-log.js';
import { startWebhookWorker } from './areas/webhooks/index.js';
import { startTimesheetSchedule } from './areas/timesheets/index.js';
import { bootstrapBanner, bootstrapDemoWorkspace } from './bootstrap.js';
import { loadConfig } from './config.js';

/**
 * On SQLite, V8 lets the old generation grow to three times what a major collection left alive
 * (instead of its own ~1.85): SQLite's large answers (a long listing is one buffer)
 * live outside the heap but count against that room until a young collection frees them, and after
 * a burst of writes (whose requests outlive young collections while they wait for the disk) the
 * smaller room made V8 run major collections back to back under a listing load (docs/performance.md, "A read
 * after writes"). PostgreSQL's answers are strings inside the heap, which this does
 * not concern: V8's default stays there.
 */
function tuneGarbageCollection(databaseUrl: string): void {
  if (databaseUrl.startsWith('sqlite:')) setFlagsFromString('--heap-growing-percent=200');
}

/** `npm start`: migrate, create the demo workspace on an empty database, serve, shut down gracefully. */
async function main(): Promise<void> {
  const config = loadConfig();
  tuneGarbageCollection(config.databaseUrl);
  // Flushed on shutdown and on a crash (docs/operations.md, "Logs", says what a kill -9 may lose).
  const logs = batchedLogDestination();
  process.on('uncaughtException', (error) => {
    logs.write(`${JSON.stringify({ level: 60, time: Date.now(), msg: 'crashed', err: { message: error.message, stack: error.stack } })}\n`);
    logs.flushSync();
    process.exit(1);
  });
  const app = await buildApp({ config, logStream: logs });
  const created = await bootstrapDemoWorkspace(app);
  if (created) {
    await app.store.durable(); // the key is shown once: it must be on disk first
    logs.flushSync();
    process.stdout.write(bootstrapBanner(app, created) + '\n');
  }

  // Webhooks are delivered by the server only: apps built by tests and the CLI make no outgoing calls.
  const webhookWorker = startWebhookWorker(app);
  // The automatic timesheet lock and reminders run on the workspaces' schedule (docs/rules.md §6 Timesheet schedule).
  const timesheetSchedule = startTimesheetSchedule(app);
  app.metrics?.countWebhookDeliveries(webhookWorker.outcomes);

  let closing = false;
  let endDrain = () => {};
  const shutdown = (signal: string) => {
    if (closing) {
      endDrain(); // a second signal ends the drain at once
      return;
    }
    closing = true;
    // The drain: /readyz answers 503 while everything else is served, until the balancer has taken this
    // instance out; only then does the listener close (docs/operations.md, "Readiness and shutdown").
    app.draining = true;
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: /readyz answers 503 for the drain, then in-flight requests finish');
    logs.flush();
    const drained = new Promise<void>((resolve) => {
      // SIGINT is a person's Ctrl-C at a terminal, where no balancer waits to take the instance out.
      const timer = setTimeout(resolve, signal === 'SIGINT' ? 0 : config.shutdownDrainMs);
      endDrain = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    // The worker's pass in flight records its attempts in the database, which app.close() closes: it
    // ends first (a delivery it has not started stays queued for the next start or another instance).
    // app.close() stops listening and closes idle keep-alive connections; a request already on an open
    // connection is answered, with Connection: close.
    drained
      .then(() => Promise.all([webhookWorker.stop(), timesheetSchedule.stop()]))
      .then(() => app.close())
      .then(
        () => {
          logs.flushSync();
          process.exit(0);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          logs.flushSync();
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  await app.listen({ port: config.port, host: config.host });
  // The metrics listener (METRICS_PORT) closes with the app (docs/operations.md "Metrics").
  if (config.metrics.port !== undefined) {
    const metricsAt = await app.metrics!.listen();
    app.log.info(`Metrics listening at http://${metricsAt.address}:${metricsAt.port}/metrics`);
  }
  logs.flush(); // "Server listening at …" at once: operators and scripts wait for it
}

main().catch((error: unknown) => {
  process.stderr.write(`timetrack: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
