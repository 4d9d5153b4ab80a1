import { ensureBuilt } from '../../bin/ensure-built.js';
import { dropTestSchemas, RUN_VARIABLE } from './stores.js';

/**
 * Before any test file: compiles src/ once (so tests that spawn the CLI or server never race to
 * build), names this run, and sweeps PostgreSQL test schemas left by runs that never finished.
 * After the last file: drops this run's schemas.
 */
export default async function setup(): Promise<() => Promise<void>> {
  ensureBuilt();
  const run = String(Math.floor(Date.now() / 1000));
  process.env[RUN_VARIABLE] = run;
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (baseUrl) await dropTestSchemas(baseUrl);
  return async () => {
    if (baseUrl) await dropTestSchemas(baseUrl, run);
  };
}
