import { buildApp } from './app.js';
import { bootstrapBanner, bootstrapDemoWorkspace } from './bootstrap.js';
import { loadConfig } from './config.js';

/** `npm start`: migrate, create the demo workspace on an empty database, serve, shut down gracefully. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp({ config });
  const created = await bootstrapDemoWorkspace(app);
  if (created) {
    await app.store.durable(); // the key is shown once: it must be on disk first
    process.stdout.write(bootstrapBanner(app, created) + '\n');
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  process.stderr.write(`timetrack: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
