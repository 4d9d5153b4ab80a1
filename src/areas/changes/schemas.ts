import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../route-kit/schemas.js';
import { CHANGE_TYPES, CURSOR_PATTERN, isDeletion, RESOURCE_SCHEMA, type ChangeResource, type ChangeType } from './rules.js';

const typesOf = (resource: ChangeResource, deletions: boolean): ChangeType[] =>
  (Object.keys(CHANGE_TYPES) as ChangeType[]).filter((type) => CHANGE_TYPES[type] === resource && isDeletion(type) === deletions);

const envelope = (types: ChangeType[], data: TSchema, what: string) =>
  Type.Object(
    {
      id: Type.String({ description: 'The event\'s id (a UUIDv7), the same in every answer and delivery' }),
      type: StringEnum(types),
      createdAt: Type.String({ format: 'date-time', description: 'When the change was made' }),
      actorId: Nullable(Type.String({ description: 'The user who made the change; null when no user did (the CLI)' })),
      data,
    },
    { title: what },
  );

const resources = Object.keys(RESOURCE_SCHEMA) as ChangeResource[];

const recordVariants = resources.map((resource) =>
  envelope(typesOf(resource, false), Type.Unsafe({ $ref: RESOURCE_SCHEMA[resource] }), `${RESOURCE_SCHEMA[resource]} event: data is the record after the change`),
);

const deletionTypes = resources.flatMap((resource) => typesOf(resource, true));
const deletionVariant = envelope(
  deletionTypes,
  Type.Object({ id: Type.String() }, { description: 'The id of the deleted record' }),
  'Deletion event: data holds the deleted record\'s id',
);

/** One event of the feed: `{id, type, createdAt, actorId, data}`, its `data` by type. */
export const ChangeEvent = Type.Unsafe<{ id: string; type: ChangeType; createdAt: string; actorId: string | null; data: unknown }>({
  $id: 'ChangeEvent',
  title: 'ChangeEvent',
  description:
    'A committed change. `data` is the record after the change, as the record\'s own GET answers it, by type: ' +
    resources.map((resource) => `${typesOf(resource, false).map((type) => `\`${type}\``).join(', ')} → ${RESOURCE_SCHEMA[resource]}`).join('; ') +
    `; a deletion (${deletionTypes.map((type) => `\`${type}\``).join(', ')}) → \`{id}\`.`,
  anyOf: [...recordVariants, deletionVariant],
});

export const ChangePage = Type.Object(
  {
    events: Type.Array(Type.Ref(ChangeEvent), { description: 'In commit order' }),
    cursor: Type.String({ description: 'Pass as `after` to continue: after the last event answered, or the feed\'s end' }),
    hasMore: Type.Boolean({ description: 'Whether more events were already there (ask again at once); false: the feed\'s end' }),
  },
  { description: 'A page of the change feed' },
);

export const ChangeQuery = Type.Object({
  after: Type.Optional(
    Type.String({ pattern: CURSOR_PATTERN, maxLength: 20, description: 'The cursor of an earlier answer; without it, from the oldest event kept' }),
  ),
  limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,2}|1000)$', maxLength: 4, description: 'Events a page, 1 to 1000 (default 100)' })),
});
export type ChangeQuery = Static<typeof ChangeQuery>;
