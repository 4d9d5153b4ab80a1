import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Id, IdMap, Name, Nullable, StringEnum, TIME_ZONE_PATTERN, Timestamp } from '../../route-kit/schemas.js';

export const PERIODS = [
  'custom',
  'today',
  'yesterday',
  'thisWeek',
  'lastWeek',
  'thisMonth',
  'lastMonth',
  'thisYear',
  'lastYear',
] as const;
export const DIMENSIONS = ['project', 'user', 'member', 'day', 'week', 'month', 'client', 'task', 'tag'] as const;
export const METRICS = ['time', 'billableTime', 'revenue', 'cost', 'profit'] as const;

/** Bounds of the free-form parts of a report. */
const MAX_SELECTED = 1_000;
const MAX_FILTERS = 100;
const MAX_OVERRIDES = 100;

const Period = StringEnum(PERIODS);
const Dimensions = Type.Array(StringEnum(DIMENSIONS), {
  minItems: 1,
  maxItems: DIMENSIONS.length,
  uniqueItems: true,
  description:
    `Grouping, in order: some of ${DIMENSIONS.join(', ')}; each at most once. client: the project's client; task: the entry's ` +
    'task; tag: each of the entry\'s tags (an entry counts in each of its tags\' rows, and once in the row above and in the totals)',
});
const Metrics = Type.Array(StringEnum(METRICS), {
  minItems: 1,
  maxItems: METRICS.length,
  uniqueItems: true,
  description: `Columns: some of ${METRICS.join(', ')}; each at most once`,
});
const Filter = Type.Object(
  {},
  {
    additionalProperties: true,
    maxProperties: 50,
    description:
      'A filter object: {"billable": bool}, {"userIds": [...]}, {"projectIds": [..., null]}, {"clientIds": [..., null]}, ' +
      '{"taskIds": [..., null]}, {"tagIds": [..., null], "match": "any"|"all"|"none"} (default any) or {"nameContains": "text"}, ' +
      'keys combined in one object applying together; any other object is listed in ignoredFilters and changes nothing',
  },
);
const Filters = Type.Array(Filter, { maxItems: MAX_FILTERS });
const Override = Type.Object({
  column: Type.String({ maxLength: 200 }),
  hint: Type.String({ maxLength: 1_000 }),
  label: Type.String({ maxLength: 200 }),
});
const Overrides = Type.Array(Override, { maxItems: MAX_OVERRIDES, description: 'Column label overrides' });
const IdList = (what: string) =>
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_SELECTED, uniqueItems: true, description: what });

export const Report = Type.Object(
  {
    id: Type.String(),
    userId: Type.String({ description: 'The owner: the user who created it' }),
    name: Type.String(),
    period: Period,
    start: Timestamp(),
    end: Timestamp(),
    dimensions: Type.Array(StringEnum(DIMENSIONS)),
    metrics: Type.Array(StringEnum(METRICS)),
    filters: Type.Array(Filter),
    hideEmptyRows: Type.Boolean(),
    pinned: Type.Optional(Type.Boolean()),
    selectedProjects: Type.Optional(Nullable(Type.Array(Type.String(), { description: 'Project ids; null: all' }))),
    selectedProjectMembers: Type.Optional(Nullable(Type.Array(Type.String(), { description: 'Member ids; null: all' }))),
    showArchivedProjects: Type.Optional(Type.Boolean()),
    showArchivedMembers: Type.Optional(Type.Boolean()),
    overridesEnabled: Type.Optional(Type.Boolean()),
    overrides: Type.Optional(Type.Array(Override)),
  },
  { $id: 'Report', title: 'Report', description: 'A saved report definition. Answers always carry every field.' },
);
export type Report = Static<typeof Report>;

export const ReportMap = IdMap(Type.Ref(Report), 'The caller\'s own reports by id, in creation order');

export const ReportParams = Type.Object({ reportId: Id });

const optionalFields = {
  filters: Type.Optional(Filters),
  hideEmptyRows: Type.Optional(Type.Boolean()),
  selectedProjects: Type.Optional(Nullable(IdList('Ids of projects of this workspace; null: all projects'))),
  selectedProjectMembers: Type.Optional(Nullable(IdList('Ids of project members of this workspace; null: all members'))),
  showArchivedProjects: Type.Optional(Type.Boolean()),
  showArchivedMembers: Type.Optional(Type.Boolean()),
  overridesEnabled: Type.Optional(Type.Boolean()),
  overrides: Type.Optional(Overrides),
};

export const ReportCreate = Type.Object(
  {
    name: Name,
    period: Period,
    start: Timestamp('With an offset; before end'),
    end: Timestamp('With an offset; after start'),
    dimensions: Dimensions,
    metrics: Metrics,
    ...optionalFields,
  },
  {
    description:
      'Required: name, period, start, end, dimensions, metrics. Defaults: filters [], hideEmptyRows false, ' +
      'selectedProjects and selectedProjectMembers null (everything), showArchivedProjects, showArchivedMembers and ' +
      'overridesEnabled false, overrides []; pinned starts false (set it with PUT). id and userId are the server\'s.',
  },
);
export type ReportCreate = Static<typeof ReportCreate>;

export const ReportUpdate = Type.Object(
  {
    name: Type.Optional(Name),
    period: Type.Optional(Period),
    start: Type.Optional(Timestamp('With an offset; before end')),
    end: Type.Optional(Timestamp('With an offset; after start')),
    dimensions: Type.Optional(Dimensions),
    metrics: Type.Optional(Metrics),
    ...optionalFields,
    pinned: Type.Optional(Type.Boolean()),
  },
  { description: 'Any subset of the create fields, plus pinned; fields left out keep their values.' },
);
export type ReportUpdate = Static<typeof ReportUpdate>;

/* Running a report (docs/rules.md §6 Reports) */

export const REPORT_FORMATS = ['json', 'csv', 'xlsx', 'pdf'] as const;

export const ReportRunQuery = Type.Object({
  timeZone: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: TIME_ZONE_PATTERN,
      description: 'IANA time zone the period, days, weeks and months are taken in; default: the caller\'s preference, else the organization\'s, else UTC',
    }),
  ),
  format: Type.Optional(StringEnum(REPORT_FORMATS, 'json (default), csv, xlsx or pdf')),
});
export type ReportRunQuery = Static<typeof ReportRunQuery>;

export const ReportRunBody = Type.Object(
  {
    name: Type.Optional(Name),
    period: Period,
    start: Timestamp('With an offset; before end. Used when period is custom'),
    end: Timestamp('With an offset; after start. Used when period is custom'),
    dimensions: Dimensions,
    metrics: Metrics,
    ...optionalFields,
  },
  { description: 'The body of POST /reports, name optional: a definition run without being saved.' },
);
export type ReportRunBody = Static<typeof ReportRunBody>;

const Seconds = (what: string) => Type.Integer({ minimum: 0, description: `${what}, whole seconds` });
const Money = (what: string) =>
  Type.Unsafe<Record<string, number>>({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: `${what} per ISO 4217 currency code, in the currency's major unit rounded to its minor unit ({"EUR": 1234.5, "JPY": 1200})`,
  });

const metricFields = {
  entries: Type.Integer({ minimum: 0, description: 'Number of entries counted' }),
  time: Type.Optional(Seconds('Rounded duration')),
  billableTime: Type.Optional(Seconds('Rounded duration of billable entries')),
  revenue: Type.Optional(Money('Revenue: rounded billable hours × the member\'s revenue rate in force at startedAt')),
  cost: Type.Optional(Money('Cost: rounded hours × the user\'s cost rate in force at startedAt')),
  profit: Type.Optional(Money('Revenue − cost; negative when cost is higher')),
  unpricedBillableTime: Type.Optional(Seconds('With revenue or profit: billable time with no revenue rate in force (it earns nothing)')),
  uncostedTime: Type.Optional(Seconds('With cost or profit: time with no cost rate in force (it costs nothing)')),
  revenueWithheldTime: Type.Optional(
    Seconds('Only for a caller who reads the revenue of some projects (a project admin): billable time on other projects, whose revenue is left out'),
  ),
};

/** A row of the tree; `rows` holds the next dimension's rows, absent at the leaf. Written out for as many levels as dimensions allow. */
function rowSchema(levels: number): TSchema {
  return Type.Object({
    key: Nullable(
      Type.String({ description: 'Project, user, member, client, task or tag id (null: no project / member / client / task / tag); 2026-07-01, 2026-W27, 2026-07' }),
    ),
    label: Type.String({
      description:
        'Project, client, task or tag name, user name (email when unnamed), No project / No member / No client / No task / No tag, ' +
        'or the formatted day, week or month',
    }),
    ...metricFields,
    ...(levels > 1 ? { rows: Type.Optional(Type.Array(rowSchema(levels - 1))) } : {}),
  });
}

export const ReportResult = Type.Object(
  {
    period: Period,
    start: Timestamp('Resolved start of the period (inclusive)'),
    end: Timestamp('Resolved end of the period (exclusive)'),
    timeZone: Type.String({ description: 'The zone the report was computed in' }),
    dimensions: Type.Array(StringEnum(DIMENSIONS)),
    metrics: Type.Array(StringEnum(METRICS)),
    rounding: Type.Object(
      { enabled: Type.Boolean(), interval: Type.Integer({ description: 'Minutes' }), mode: StringEnum(['NEAREST', 'UP', 'DOWN']) },
      { description: 'The organization\'s rounding, applied to each entry before summing when enabled' },
    ),
    totals: Type.Object(metricFields, {
      description: 'The sums of the top rows; grouped by tag first, each entry once (the tag rows may add up to more)',
    }),
    rows: Type.Array(rowSchema(DIMENSIONS.length)),
    ignoredFilters: Type.Array(Filter, { description: 'Filter objects the grammar does not understand, as sent; they changed nothing' }),
  },
  { $id: 'ReportResult', title: 'ReportResult' },
);
