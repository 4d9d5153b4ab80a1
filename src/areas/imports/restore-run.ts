import type { Db } from '../../db/database.js';
import { restoreOrganization, restoreTables } from '../../db/workspace-restore.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../../db/workspace-tables.js';
import { accountOfEmail } from '../access/index.js';
import { noteImportedLengths } from '../activities/index.js';
import { sealedNewWebhookSecret } from '../webhooks/index.js';
import { openArchive } from './archive.js';
import { UnreadableFile } from './csv-file.js';
import { finishImport, noteProgress, type ImportOutcome } from './repository.js';
import type { RunContext } from './run.js';
import type { ImportCounts } from './schemas.js';

/** Rows of the export read and written at a time. */
const PAGE_ROWS = 500;

/** A dry run's transaction ends here, rolled back, with what it would have written. */
class DryRunDone extends Error {
  constructor(readonly outcome: ImportOutcome) {
    super('dry run');
  }
}

const countsOf = (created: Record<string, number>): ImportCounts => ({
  clients: created.clients ?? 0,
  projects: created.projects ?? 0,
  tasks: created.tasks ?? 0,
  tags: created.tags ?? 0,
  users: created.users ?? 0,
  members: created.project_members ?? 0,
  activities: created.activities ?? 0,
  revenueRates: created.revenue_rates ?? 0,
  costRates: created.cost_rates ?? 0,
});

const notAnExport = (message: string): ImportOutcome => ({
  status: 'failed',
  rows: 0,
  created: countsOf({}),
  skipped: 0,
  errorCount: 1,
  errors: [{ row: 0, column: null, code: 'file-unreadable', message }],
  warnings: [],
});

/**
 * An import of timetrack's own export (docs/rules.md §6 Export): every record of the archive written in
 * ONE transaction that also ends the import (a dry run runs the same transaction and rolls it back).
 * Undefined when the transaction ended the import.
 */
export async function restoreOutcome(context: RunContext, run: { importId: string; organizationId: string; dryRun: boolean }, filePath: string): Promise<ImportOutcome | undefined> {
  const { db, config } = context;
  const { importId } = run;
  let archive;
  try {
    archive = await openArchive(filePath);
  } catch (error) {
    if (error instanceof UnreadableFile) return notAnExport(error.message);
    throw error;
  }
  try {
    const manifest = (await archive.json('manifest.json')) as { format?: unknown; version?: unknown; counts?: Record<string, number> } | undefined;
    if (manifest?.format !== EXPORT_FORMAT || typeof manifest.version !== 'number' || manifest.version > EXPORT_VERSION) {
      return notAnExport(`The file is no ${EXPORT_FORMAT} of version ${EXPORT_VERSION} or before (its manifest.json says otherwise).`);
    }
    const rows = Object.values(manifest.counts ?? {}).reduce((sum, count) => sum + count, 0);
    await noteProgress(db, importId, { rows, rowsDone: 0 });
    const organization = ((await archive.json('organization.json')) ?? {}) as Record<string, unknown>;
    return await restoreInOneTransaction(db, { ...run, rows, organization, config }, archive);
  } catch (error) {
    if (error instanceof UnreadableFile) return notAnExport(error.message);
    if (error instanceof DryRunDone) return error.outcome;
    throw error;
  } finally {
    archive.close();
  }
}

async function restoreInOneTransaction(
  db: Db,
  run: { importId: string; organizationId: string; dryRun: boolean; rows: number; organization: Record<string, unknown>; config: RunContext['config'] },
  archive: Awaited<ReturnType<typeof openArchive>>,
): Promise<undefined> {
  const { importId, organizationId } = run;
  await db.transaction().execute(async (trx) => {
    await restoreOrganization(trx, organizationId, run.organization);
    const restored = await restoreTables(trx, {
      organizationId,
      importId,
      hooks: { accountOfEmail, sealedWebhookSecret: () => sealedNewWebhookSecret(run.config) },
      rowsOf: (table) => archive.rows(`${table}.jsonl`, PAGE_ROWS),
    });
    await noteImportedLengths(trx, organizationId, [...restored.longest.values()]);
    const outcome: ImportOutcome = {
      status: 'succeeded',
      rows: run.rows,
      created: countsOf(restored.created),
      skipped: restored.skipped,
      errorCount: 0,
      errors: [],
      warnings: [],
      period: restored.period,
    };
    if (run.dryRun) throw new DryRunDone(outcome);
    if (!(await finishImport(trx, importId, outcome))) throw new Error('the import was marked failed while it ran');
  });
  return undefined;
}
