import { ensureBuilt } from '../../bin/ensure-built.js';

/** Compiles src/ once before any test file runs, so tests that spawn the CLI or server never race to build. */
export default function setup(): void {
  ensureBuilt();
}
