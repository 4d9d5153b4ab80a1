import { Type, type Static } from '@sinclair/typebox';
import { IdMap, Nullable, StringEnum, TIME_ZONE_PATTERN, Timestamp } from '../../route-kit/schemas.js';

export const IMPORT_SOURCES = ['toggl', 'clockify', 'harvest', 'kimai', 'solidtime', 'timetrack'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export const IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const ImportProblem = Type.Object({
  row: Type.Integer({ description: 'The data row, counted from 1 (the header is not a row); 0 for the file as a whole' }),
  column: Nullable(Type.String({ description: "The column as the file's header names it" })),
  code: Type.String({
    description:
      'missing-column, invalid-date, invalid-time, invalid-number, invalid-value, invalid-email, end-before-start, ' +
      'user-unknown, date-format-ambiguous, file-unreadable, workspace-changed, interrupted',
  }),
  message: Type.String(),
});
export type ImportProblem = Static<typeof ImportProblem>;

const Counts = Type.Object({
  clients: Type.Integer(),
  projects: Type.Integer(),
  tasks: Type.Integer(),
  tags: Type.Integer(),
  users: Type.Integer(),
  members: Type.Integer(),
  activities: Type.Integer(),
  revenueRates: Type.Integer(),
  costRates: Type.Integer(),
});
export type ImportCounts = Static<typeof Counts>;

export const Import = Type.Object(
  {
    id: Type.String(),
    source: StringEnum(IMPORT_SOURCES),
    status: StringEnum(IMPORT_STATUSES, 'queued, then running, then succeeded or failed'),
    dryRun: Type.Boolean(),
    mode: StringEnum(['all', 'valid'] as const),
    rows: Type.Integer({ description: 'Data rows of the file (0 until it has been read)' }),
    rowsDone: Type.Integer({ description: 'Rows read so far: the progress of a running import' }),
    created: Counts,
    skipped: Type.Integer({ description: 'Rows imported before (by this or an earlier import), not imported again' }),
    errorCount: Type.Integer(),
    errors: Type.Array(ImportProblem, { description: 'The first 1,000 errors' }),
    warnings: Type.Array(ImportProblem),
    period: Nullable(
      Type.Object(
        { start: Timestamp(), end: Timestamp() },
        { description: "From the first imported entry's start to the last one's end (a dry run: of the entries it would import); null when none" },
      ),
    ),
    createdAt: Timestamp(),
    finishedAt: Nullable(Timestamp()),
  },
  { $id: 'Import', title: 'Import' },
);
export type Import = Static<typeof Import>;

export const ImportMap = IdMap(Type.Ref(Import), "The workspace's imports by id, newest first");

export const ImportQuery = Type.Object({
  source: StringEnum(IMPORT_SOURCES, 'The tool the file was exported from'),
  timeZone: Type.Optional(
    Type.String({ maxLength: 64, pattern: TIME_ZONE_PATTERN, description: "The zone of the file's wall-clock times; default the organization's" }),
  ),
  dateFormat: Type.Optional(StringEnum(['MDY', 'DMY', 'YMD'] as const, 'How to read dates such as 03/04/2024; default: the file decides')),
  dryRun: Type.Optional(StringEnum(['true', 'false'] as const, 'true: answer the counts and errors, write nothing')),
  mode: Type.Optional(StringEnum(['all', 'valid'] as const, 'all (default): one bad row and nothing is imported; valid: the good rows are')),
  invite: Type.Optional(StringEnum(['true', 'false'] as const, 'true: mail the people the import adds an invitation')),
});
export type ImportQuery = Static<typeof ImportQuery>;

export const ImportParams = Type.Object({ importId: Type.String() });
export type ImportParams = Static<typeof ImportParams>;
