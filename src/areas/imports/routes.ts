import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Readable } from 'node:stream';
import { operation } from '../../route-kit/schemas.js';
import { ImportRunner } from './runner.js';
import { Import, ImportMap, ImportParams, ImportQuery } from './schemas.js';
import { importOf, startImport, workspaceExport, workspaceImports, wrongFileType } from './service.js';
import { MAX_IMPORT_BYTES } from './upload.js';

const TAG = 'Imports';

/** An operation whose 200 is a file of one media type only (no JSON). */
function onlyFile<T extends { response: Record<number, unknown> }>(schema: T, mediaType: string, description: string): T {
  return { ...schema, response: { ...schema.response, 200: { description, content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } } } } };
}
const RULES =
  'Administrators only. The body is the export file itself (`Content-Type: text/csv`; a UTF-8 BOM, `,` or `;` allowed), at most ' +
  `${MAX_IMPORT_BYTES / 1024 / 1024} MB (413). Sources and their columns: toggl (Toggl Track detailed time entries), clockify ` +
  '(detailed report, old and 2024 layouts), harvest (time export; hours laid end to end from 09:00 per person and day), kimai ' +
  '(default CSV export). Wall-clock times are read in `timeZone` (default the organization\'s): a time the zone skips is ' +
  'invalid-time, one it has twice the earlier instant. Dates such as 03/04/2024: the whole file decides (a first number above ' +
  '12 means DMY, a second MDY), else `dateFormat`, else the import fails with date-format-ambiguous. Clients, projects, tasks ' +
  'and tags are matched by name regardless of case and created when missing; people by email (a Harvest row by full name: ' +
  'an unknown name is user-unknown), new ones joining as User (mailed an invitation with invite=true). A rate of the file ' +
  'becomes the member\'s revenue (or user\'s cost) rate over the imported period where none is in force. A row imported before ' +
  'is skipped. mode=all: one bad row and nothing is imported; mode=valid: the good rows are. One import at a time per ' +
  'workspace (409). Everything is applied in one transaction: a server stopped during an import applies none of it.';

export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const runner = new ImportRunner(app.db, app.config, app.log, app.server);
  app.addHook('onReady', () => runner.open());
  app.addHook('onClose', () => runner.close());
  // The file reaches the service as a stream, whatever its type: the service says which types a source takes (415).
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.post(
    '/imports',
    {
      config: { permission: 'imports:manage' },
      schema: operation({
        operationId: 'startImport',
        tag: TAG,
        summary: "Import another tool's export",
        description: `${RULES} Answers 202 with the queued import and \`Location: /api/imports/{id}\`; the work runs in the background.`,
        querystring: ImportQuery,
        response: Type.Ref(Import),
        accepted: true,
        errors: {
          403: 'Not an administrator',
          409: 'Another import of the workspace is queued or running',
          413: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`,
          415: 'The file is not of a type the source exports',
        },
      }),
    },
    async (request, reply) => {
      const body = request.body instanceof Readable ? request.body : undefined;
      if (body === undefined) throw wrongFileType(request.query.source);
      const contentLength = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
      const created = await startImport(app.db, runner, {
        actor: request.actor,
        workspace: request.workspace!,
        query: request.query,
        body,
        contentType: (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase(),
        contentLength,
      });
      return reply.code(202).header('location', `/api/imports/${created.id}`).send(created);
    },
  );

  app.get(
    '/imports',
    {
      config: { permission: 'imports:manage' },
      schema: operation({
        operationId: 'listImports',
        tag: TAG,
        summary: "The workspace's imports",
        description: 'Administrators only. Newest first.',
        response: ImportMap,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => Object.fromEntries((await workspaceImports(app.db, request.actor)).map((found) => [found.id, found])),
  );

  app.get(
    '/imports/:importId',
    {
      config: { permission: 'imports:manage' },
      schema: operation({
        operationId: 'getImport',
        tag: TAG,
        summary: 'One import: its status, counts and errors',
        description: 'Administrators only. A running import counts its rows read in rowsDone.',
        params: ImportParams,
        response: Type.Ref(Import),
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => importOf(app.db, request.actor, request.params.importId),
  );

  app.get(
    '/export',
    {
      config: { permission: 'imports:manage' },
      schema: onlyFile(operation({
        operationId: 'exportWorkspace',
        tag: TAG,
        summary: 'Every record of the workspace, as one ZIP',
        description:
          'Administrators only. A ZIP archive, streamed as it is read (memory does not grow with the workspace): `organization.json` ' +
          '(the settings), one `<table>.jsonl` per kind of record (users with their email and preferences, clients, projects, ' +
          'project_members, tasks, tags, revenue_rates, cost_rates, activities, activity_tags, reports, timesheet_locks, requests, ' +
          'geofences, webhooks without their secrets), a JSON object per line, and `manifest.json` (format `timetrack-export`, ' +
          'version, exportedAt, counts by table). POST /imports?source=timetrack takes it back.',
        response: Type.String({ format: 'binary' }),
        errors: { 403: 'Not an administrator' },
      }), 'application/zip', 'The archive'),
    },
    async (request, reply) => {
      const { archive, fileName } = workspaceExport(app.db, request.workspace!);
      return reply.type('application/zip').header('content-disposition', `attachment; filename="${fileName}"`).send(archive as never);
    },
  );
};
