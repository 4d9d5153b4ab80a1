import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap, Name, Nullable, StringEnum, Timestamp } from '../../http/schemas.js';

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
export const DIMENSIONS = ['project', 'user', 'member', 'day', 'week', 'month'] as const;
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
  description: `Grouping, in order: some of ${DIMENSIONS.join(', ')}; each at most once`,
});
const Metrics = Type.Array(StringEnum(METRICS), {
  minItems: 1,
  maxItems: METRICS.length,
  uniqueItems: true,
  description: `Columns: some of ${METRICS.join(', ')}; each at most once`,
});
const Filter = Type.Object({}, { additionalProperties: true, maxProperties: 50, description: 'Free-form filter object' });
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
