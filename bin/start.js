#!/usr/bin/env node
// `npm start`: build when needed, then serve.
import { ensureBuilt } from './ensure-built.js';

ensureBuilt();
await import('../dist/server.js');
