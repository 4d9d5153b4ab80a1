import { ensureBuilt } from '../../bin/ensure-built.js';
import { sweepOldTestSchemas } from './stores.js';

/** Compiles src/ once before any test file runs, so tests that spawn the CLI or server never race to build. */
export default async function setup(): Promise<void> {
  ensureBuilt();
  if (process.env.TEST_DATABASE_URL) await sweepOldTestSchemas(process.env.TEST_DATABASE_URL);
}
