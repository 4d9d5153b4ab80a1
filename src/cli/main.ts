import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { createApiKey } from '../areas/access/index.js';
import { importAsOperator, IMPORT_SOURCES, workspaceExport } from '../areas/imports/index.js';
import { listMessages } from '../areas/mail/index.js';
import { createImpersonationRequest } from '../areas/requests/index.js';
import { workspaceUserOfEmail } from '../areas/users/index.js';
import { createWorkspace, findWorkspaceByDomain, releaseRetiredDomain } from '../areas/workspace/index.js';
import { loadConfig } from '../config.js';
import { backupSqlite, restoreSqlite } from '../db/backup.js';
import { copyStore } from '../db/copy.js';
import { openStore } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { StoreRefusal } from '../db/store-files.js';
import { ApiError } from '../domain/errors.js';

/** A failure the operator caused: its message goes to stderr and the exit code is 1. */
class CliError extends Error {}

const print = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n');

/** Runs one command against the same app the server builds (logs to stderr, warnings only). */
async function withApp<T>(work: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const config = { ...loadConfig(), logLevel: process.env.LOG_LEVEL ?? 'warn' };
  const app = await buildApp({ config, logStream: process.stderr });
  try {
    const result = await work(app);
    await app.store.durable(); // printed means on disk
    return result;
  } finally {
    await app.close();
  }
}

export async function workspaceOf(app: FastifyInstance, domain: string) {
  const workspace = await findWorkspaceByDomain(app.db, domain.trim().toLowerCase());
  if (!workspace) throw new CliError(`no workspace "${domain}"`);
  return workspace;
}

export function buildCli(): Command {
  const program = new Command('timetrack').description('Operate a timetrack service').showHelpAfterError();

  const workspace = program.command('workspace').description('Workspaces');
  workspace
    .command('create')
    .description('Create a workspace with its first administrator and an API key')
    .requiredOption('--domain <domain>', 'subdomain: 3–63 of a-z, 0-9, -')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--admin-email <email>', 'the administrator\'s email')
    .option('--admin-name <name>', 'the administrator\'s name')
    .option('--currency <code>', 'ISO 4217 currency', 'USD')
    .option('--time-zone <zone>', 'IANA time zone', 'UTC')
    .action(async (options: { domain: string; name: string; adminEmail: string; adminName?: string; currency: string; timeZone: string }) => {
      const created = await withApp((app) => createWorkspace(app.db, options));
      print(created);
    });

  const domain = program.command('domain').description('Workspace domains');
  domain
    .command('release')
    .description('Release a deleted workspace\'s domain before its reservation ends, so a workspace may take it')
    .requiredOption('--domain <domain>', 'the domain a deleted workspace held')
    .action(async (options: { domain: string }) => {
      print(await withApp((app) => releaseRetiredDomain(app.db, options.domain)));
    });

  const apikey = program.command('apikey').description('API keys');
  apikey
    .command('create')
    .description('Create an API key for a user already in the workspace')
    .requiredOption('--domain <domain>', 'the workspace')
    .requiredOption('--email <email>', 'the user\'s email')
    .option('--name <label>', 'a label for the key', 'Created with the CLI')
    .action(async (options: { domain: string; email: string; name: string }) => {
      const result = await withApp(async (app) => {
        const { id: organizationId } = await workspaceOf(app, options.domain);
        const user = await workspaceUserOfEmail(app.db, organizationId, options.email);
        if (!user) throw new CliError(`no user ${options.email} in workspace "${options.domain}"; invite them first`);
        if (user.archived) throw new CliError(`user ${options.email} is archived`);
        const { key } = await createApiKey(app.db, { organizationId, userId: user.id }, options.name);
        return { apiKey: key, userId: user.id };
      });
      print(result);
    });

  const outbox = program.command('outbox').description('Outgoing mail');
  outbox
    .command('list')
    .description('Print outgoing messages as JSON lines, oldest first: every message, or a workspace\'s, or an address\'s')
    .option('--domain <domain>', 'only the workspace\'s messages')
    .option('--to <email>', 'only the messages to this address (a workspace list too, which belongs to no workspace)')
    .action(async (options: { domain?: string; to?: string }) => {
      const messages = await withApp(async (app) =>
        listMessages(app.db, {
          ...(options.domain === undefined ? {} : { organizationId: (await workspaceOf(app, options.domain)).id }),
          ...(options.to === undefined ? {} : { to: options.to }),
        }),
      );
      for (const message of messages) print(message);
    });

  program
    .command('import')
    .description("Import another tool's export into a workspace, as its first administrator, and print the ended Import record")
    .requiredOption('--domain <domain>', 'the workspace')
    .requiredOption('--source <source>', 'toggl, clockify, harvest, kimai or timetrack')
    .argument('<file>', 'the export file (CSV, or the ZIP of a timetrack export)')
    .option('--time-zone <zone>', "the zone of the file's wall-clock times (default the organization's)")
    .option('--date-format <format>', 'MDY, DMY or YMD (default: the file decides)')
    .option('--dry-run', 'check and count, write nothing')
    .option('--mode <mode>', 'all (one bad row and nothing is imported) or valid (the good rows are)', 'all')
    .action(async (file: string, options: { domain: string; source: string; timeZone?: string; dateFormat?: string; dryRun?: boolean; mode: string }) => {
      if (!IMPORT_SOURCES.includes(options.source as never)) throw new CliError(`--source must be one of ${IMPORT_SOURCES.join(', ')}`);
      if (options.dateFormat !== undefined && !['MDY', 'DMY', 'YMD'].includes(options.dateFormat)) throw new CliError('--date-format must be MDY, DMY or YMD');
      if (!['all', 'valid'].includes(options.mode)) throw new CliError('--mode must be all or valid');
      const ended = await withApp(async (app) =>
        importAsOperator(app, await workspaceOf(app, options.domain), {
          source: options.source as (typeof IMPORT_SOURCES)[number],
          file,
          timeZone: options.timeZone,
          dateFormat: options.dateFormat as 'MDY' | 'DMY' | 'YMD' | undefined,
          dryRun: options.dryRun === true,
          mode: options.mode as 'all' | 'valid',
        }),
      );
      print(ended);
      if (ended.status === 'failed') process.exitCode = 1;
    });

  program
    .command('export')
    .description('Write every record of a workspace to a ZIP (as GET /api/export answers it)')
    .requiredOption('--domain <domain>', 'the workspace')
    .option('--out <file>', 'where to write it (default: standard output)')
    .action(async (options: { domain: string; out?: string }) => {
      await withApp(async (app) => {
        const { archive } = workspaceExport(app.db, await workspaceOf(app, options.domain));
        await pipeline(archive, options.out === undefined ? process.stdout : createWriteStream(options.out));
      });
    });

  const support = program.command('support').description('Support access');
  support
    .command('impersonate')
    .description('Ask the workspace\'s administrators for a one-time support sign-in (a PENDING impersonation request)')
    .requiredOption('--domain <domain>', 'the workspace')
    .requiredOption('--reason <reason>', 'why support needs to sign in; shown in the sign-in mail')
    .action(async (options: { domain: string; reason: string }) => {
      const request = await withApp(async (app) =>
        createImpersonationRequest(app.db, (await workspaceOf(app, options.domain)).id, options.reason),
      );
      print({ requestId: request.id });
    });

  program
    .command('migrate')
    .description('Apply pending database migrations and exit')
    .action(async () => {
      const store = openStore(loadConfig().databaseUrl);
      try {
        const applied = await migrateToLatest(store);
        print({ applied });
      } finally {
        await store.close();
      }
    });

  program
    .command('backup')
    .description('Copy the SQLite store to a new file while the server serves, check the copy, and print {file, bytes, ...}')
    .requiredOption('--out <file>', 'the backup file to write (never an existing one)')
    .action(async (options: { out: string }) => {
      print(await backupSqlite(loadConfig().databaseUrl, options.out));
    });

  program
    .command('restore')
    .description('Put a backup in place of the SQLite store, which must be stopped and empty, and migrate it to this version')
    .requiredOption('--from <file>', 'a file made by timetrack backup')
    .action(async (options: { from: string }) => {
      print(await restoreSqlite(loadConfig().databaseUrl, options.from));
    });

  program
    .command('copy')
    .description('Copy every row of a store into a new, empty store (SQLite to PostgreSQL), and check each table\'s rows and checksum')
    .requiredOption('--from <url>', 'the store to copy (a DATABASE_URL); it is only read')
    .requiredOption('--to <url>', 'the empty store to fill (a DATABASE_URL); it is migrated first')
    .action(async (options: { from: string; to: string }) => {
      print(await copyStore(options.from, options.to));
    });

  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildCli().parseAsync(argv);
    // A command that printed its result may still have failed (an import that ended failed).
    return process.exitCode === 1 ? 1 : 0;
  } catch (error) {
    const message =
      error instanceof ApiError || error instanceof CliError || error instanceof StoreRefusal
        ? error.message
        : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`timetrack: ${message}\n`);
    return 1;
  }
}
