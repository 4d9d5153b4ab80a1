import type { Readable } from 'node:stream';
import { exportWorkspace } from '../../db/workspace-export.js';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { ApiError, conflict, notFound } from '../../domain/errors.js';
import { newId } from '../../lib/ids.js';
import { canonicalTimeZone } from '../../lib/time-zones.js';
import { getOrganization } from '../workspace/index.js';
import { findImport, insertImport, listImports } from './repository.js';
import type { ImportRunner } from './runner.js';
import type { Import, ImportQuery } from './schemas.js';
import { receiveFile } from './upload.js';

/** The media types each kind of file comes as. */
const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'];
const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];

/** Whether a source's file may come as this media type (a CSV export, or a ZIP archive). */
const takes = (source: ImportQuery['source'], contentType: string) => (source === 'timetrack' ? ZIP_TYPES : CSV_TYPES).includes(contentType);

/** The problem of a file of another type than its source exports. */
export const wrongFileType = (source: ImportQuery['source']) =>
  new ApiError('unsupported-media-type', source === 'timetrack' ? 'A timetrack export is a ZIP archive: send it as application/zip.' : `A ${source} export is a CSV file: send it as text/csv.`);

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
export function workspaceExport(db: Db, actor: Actor, workspace: Workspace): { archive: Readable; fileName: string } {
  const now = new Date().toISOString();
  return { archive: exportWorkspace(db, actor.organizationId, now), fileName: `timetrack-${workspace.domain}-${now.slice(0, 10)}.zip` };
}
