import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, TIME_ZONE_PATTERN, Timestamp } from '../../route-kit/schemas.js';

/** The formats of a detailed report: JSON in pages, or the whole report as one file. */
export const DETAIL_FORMATS = ['json', 'csv', 'xlsx'] as const;
export type DetailFormat = (typeof DETAIL_FORMATS)[number];

/** Entries of a JSON page unless `limit` says otherwise, and at most. */
export const DEFAULT_DETAIL_PAGE = 1_000;
export const MAX_DETAIL_PAGE = 2_000;

export const DetailQuery = Type.Object({
  timeZone: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: TIME_ZONE_PATTERN,
      description: 'IANA time zone of the report\'s days and wall-clock times; else the caller\'s preference, else the organization\'s, else UTC',
    }),
  ),
  format: Type.Optional(StringEnum(DETAIL_FORMATS, '`json` (default, in pages), `csv` or `xlsx` (the whole report as one download)')),
  limit: Type.Optional(
    Type.String({
      maxLength: 4,
      pattern: '^([1-9][0-9]{0,2}|1[0-9]{3}|2000)$',
      description: `JSON only: at most this many entries on the page (1 to ${MAX_DETAIL_PAGE}, default ${DEFAULT_DETAIL_PAGE}).`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'JSON only, opaque: the page after the one whose `Link: <…>; rel="next"` gave it. 422 for a text no page gave.',
    }),
  ),
});
export type DetailQuery = Static<typeof DetailQuery>;

const Amounts = Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.Number(), {
  description: 'An amount per ISO 4217 currency in major units, rounded to the currency\'s minor unit; `{}` when none',
});
const Rate = Nullable(
  Type.Object(
    { currency: Type.String(), value: Type.Number({ description: 'Per hour' }) },
    { description: 'The rate in force at startedAt; null when none is' },
  ),
);

export const DetailedEntry = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    startedAt: Timestamp(),
    endedAt: Timestamp(),
    billable: Type.Boolean(),
    user: Type.Object({ id: Type.String(), name: Nullable(Type.String()) }),
    project: Nullable(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'null: no project' })),
    client: Nullable(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'The client of the entry\'s project as it is now; null: none, or no project' })),
    task: Nullable(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'null: no task' })),
    tags: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), { description: 'The entry\'s tags, in the order the activity has them; [] for none' }),
    duration: Type.Integer({ description: 'Seconds, rounded as the report rounds (each entry before summing)' }),
    rawDuration: Type.Integer({ description: 'Seconds as recorded (milliseconds dropped)' }),
    revenueRate: Type.Optional(Rate),
    revenue: Type.Optional(Amounts),
    costRate: Type.Optional(Rate),
    cost: Type.Optional(Amounts),
  },
  {
    $id: 'DetailedReportEntry',
    title: 'DetailedReportEntry',
    description:
      'One entry of a detailed report. `client` is its project\'s client as it is now (null: none, or no project), `task` its ' +
      'task (null: none, also once the task is deleted), `tags` its tags in the activity\'s order; names are the current ones. ' +
      '`revenueRate` and `revenue` are present when the report asks for revenue or profit ' +
      'and the caller may read the revenue rates of the entry\'s project (administrators: every project; a project admin: ' +
      'the projects they administer); `revenue` is `{}` for a non-billable entry or one without a revenue rate. `costRate` ' +
      'and `cost` are present for administrators when the report asks for cost or profit.',
  },
);
export type DetailedEntry = Static<typeof DetailedEntry>;

export const DetailedReport = Type.Object(
  {
    period: Type.String(),
    start: Timestamp(),
    end: Timestamp(),
    timeZone: Type.String(),
    rounding: Type.Object({ enabled: Type.Boolean(), interval: Type.Integer(), mode: StringEnum(['NEAREST', 'UP', 'DOWN'] as const) }),
    ignoredFilters: Type.Array(Type.Object({}, { additionalProperties: true })),
    entries: Type.Array(Type.Ref(DetailedEntry)),
  },
  {
    $id: 'DetailedReport',
    title: 'DetailedReport',
    description: 'A page of a detailed report: the report\'s resolved period and settings, and its entries in startedAt order, then id.',
  },
);
export type DetailedReport = Static<typeof DetailedReport>;
