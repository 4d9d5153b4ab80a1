import type { Readable } from 'node:stream';
import { exportWorkspace } from '../../db/workspace-export.js';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import path from 'node:path';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { ApiError, conflict, notFound } from '../../domain/errors.js';
import { newId } from '../../lib/ids.js';
import { canonicalTimeZone } from '../../lib/time-zones.js';
import { getOrganization } from '../workspace/index.js';
import { findImport, firstAdministrator, insertImport, listImports } from './repository.js';
import { runImport } from './run.js';
import type { ImportRunner } from './runner.js';
import type { Import, ImportQuery } from './schemas.js';
import { receiveFile } from './upload.js';

/** The media types each kind of file comes as. */
const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'];
const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];

/** Whether a source's file may come as this media type (a CSV export, or a ZIP archive). */
const takes = (source: ImportQuery['source'], contentType: string) => (source === 'timetrack' || source === 'solidtime' ? ZIP_TYPES : CSV_TYPES).includes(contentType);

/** The problem of a file of another type than its source exports. */
export const wrongFileType = (source: ImportQuery['source']) =>
  new ApiError(
    'unsupported-media-type',
    source === 'timetrack' || source === 'solidtime' ? `A ${source} export is a ZIP archive: send it as application/zip.` : `A ${source} export is a CSV file: send it as text/csv.`,
  );

const anotherRuns = () => conflict('Another import of this workspace is queued or running: wait until it has ended.');

/**
 * POST /imports (docs/rules.md §6 Imports): receives the file, records the import as queued (409 while
 * another of the workspace is queued or running) and starts it in the background; answers the record.
 */
export async function startImport(
  db: Db,
  runner: ImportRunner,
  request: { actor: Actor; workspace: Workspace; query: ImportQuery; body: Readable; contentType: string; contentLength: number | undefined },
): Promise<Import> {
  const { actor, workspace, query } = request;
  if (!takes(query.source, request.contentType)) {
    request.body.resume();
    throw wrongFileType(query.source);
  }
  const timeZone =
    query.timeZone === undefined ? ((await getOrganization(db, actor.organizationId)).timeZone ?? 'UTC') : canonicalTimeZone(query.timeZone, '/query/timeZone');
  const file = await receiveFile(request.body, request.contentLength);
  try {
    const created = await insertImport(db, {
      id: newId(),
      organizationId: actor.organizationId,
      createdBy: actor.userId,
      source: query.source,
      dryRun: query.dryRun === 'true',
      mode: query.mode ?? 'all',
      options: { timeZone, ...(query.dateFormat ? { dateFormat: query.dateFormat } : {}), invite: query.invite === 'true' },
    });
    runner.start({ workspace, inviter: { userId: actor.userId, email: actor.email } }, created.id, file);
    return created;
  } catch (error) {
    await rm(path.dirname(file), { recursive: true, force: true });
    if (isUniqueViolation(error)) throw anotherRuns();
    throw error;
  }
}

export async function importOf(db: Db, actor: Actor, importId: string): Promise<Import> {
  const found = await findImport(db, actor.organizationId, importId);
  if (!found) throw notFound('import');
  return found;
}

export const workspaceImports = (db: Db, actor: Actor): Promise<Import[]> => listImports(db, actor.organizationId);

/**
 * GET /export (docs/rules.md §6 Export): every record of the workspace as one ZIP, streamed as it is
 * read; its file name carries the workspace's domain and the day.
 */
export function workspaceExport(db: Db, workspace: Workspace): { archive: Readable; fileName: string } {
  const now = new Date().toISOString();
  return { archive: exportWorkspace(db, workspace.id, now), fileName: `timetrack-${workspace.domain}-${now.slice(0, 10)}.zip` };
}

/**
 * `timetrack import` (docs/operations.md "Imports and export"): a file of the operator's machine imported
 * into a workspace as its first administrator would, run to its end in this process; the ended record.
 */
export async function importAsOperator(
  app: { db: Db; config: Config; log: FastifyBaseLogger },
  workspace: Workspace,
  options: { source: ImportQuery['source']; file: string; timeZone?: string; dateFormat?: ImportQuery['dateFormat']; dryRun: boolean; mode: 'all' | 'valid' },
): Promise<Import> {
  const admin = await firstAdministrator(app.db, workspace.id);
  if (!admin) throw conflict(`The workspace ${workspace.domain} has no administrator to import as.`);
  const timeZone = options.timeZone === undefined ? ((await getOrganization(app.db, workspace.id)).timeZone ?? 'UTC') : canonicalTimeZone(options.timeZone, '--time-zone');
  const file = await receiveFile(createReadStream(options.file), undefined);
  const created = await insertImport(app.db, {
    id: newId(),
    organizationId: workspace.id,
    createdBy: admin.id,
    source: options.source,
    dryRun: options.dryRun,
    mode: options.mode,
    options: { timeZone, ...(options.dateFormat ? { dateFormat: options.dateFormat } : {}), invite: false },
  }).catch(async (error: unknown) => {
    await rm(path.dirname(file), { recursive: true, force: true });
    throw isUniqueViolation(error) ? anotherRuns() : error;
  });
  try {
    await runImport({ ...app, workspace, inviter: { userId: admin.id, email: admin.email } }, created.id, file, new AbortController().signal);
  } finally {
    await rm(path.dirname(file), { recursive: true, force: true });
  }
  return (await findImport(app.db, workspace.id, created.id))!;
}
