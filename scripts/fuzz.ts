// `npm run fuzz -- --runs N [--seed S] [--database URL] [--only operationId,…]`: runs through tsx (see package.json).
import { main } from '../test/fuzz/cli.js';

process.exitCode = await main(process.argv.slice(2));
