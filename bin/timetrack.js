#!/usr/bin/env node
// The operator CLI: builds the service first when the compiled code is missing or older than src/.
import { ensureBuilt } from './ensure-built.js';

ensureBuilt();
const { runCli } = await import('../dist/cli/main.js');
process.exitCode = await runCli(process.argv);
