import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap, Name, Nullable, Timestamp } from '../../route-kit/schemas.js';

export const Activity = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    billable: Type.Boolean(),
    startedAt: Timestamp(),
    endedAt: Nullable(Timestamp('null while the timer runs')),
    projectId: Nullable(Type.String()),
    userId: Type.String({ description: 'The owner: the user who created it' }),
    taskId: Nullable(Type.String({ description: 'A task of the activity\'s project, or null; null again when the task is deleted' })),
    tagIds: Type.Array(Type.String(), {
      description: 'The activity\'s tags, in the order first given, without repeats; a deleted tag leaves every activity',
    }),
  },
  { $id: 'Activity', title: 'Activity' },
);
export type Activity = Static<typeof Activity>;

export const ActivityMap = IdMap(
  Type.Ref(Activity),
  'Activities visible to the caller by id, ordered by startedAt (then id): an administrator sees every activity ' +
    'of the workspace, a User their own plus those on projects they are a project admin of.',
);

/** The most tags one activity carries (docs/rules.md §6 Activities: task and tags). */
export const MOST_TAGS = 25;

/** A body's tag ids: at most MOST_TAGS distinct ones (repeats are collapsed before they are counted). */
const TagIds = (description: string) =>
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: 4 * MOST_TAGS, description: `${description}; at most ${MOST_TAGS} distinct tags` });

/** A filter of the listing that may repeat: any of the values. */
const AnyOf = (description: string) =>
  Type.Union([Type.String({ maxLength: 64 }), Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100 })], {
    description: `${description}; repeat the parameter for any of several (at most 100)`,
  });

export const ActivityCreate = Type.Object(
  {
    name: Name,
    startedAt: Timestamp('With an offset (422 without); for a timer, at most 24 hours after now'),
    endedAt: Type.Optional(Nullable(Timestamp('Required unless pending is true; not before startedAt, at most 31 days after it'))),
    pending: Type.Optional(
      Type.Boolean({
        description:
          'true without endedAt opens a timer (endedAt null). The caller\'s running timer, if any, is closed at the new ' +
          'startedAt (or at its own startedAt when that is later): 423 when its week is locked for a User, 422 when that ' +
          'would make it longer than 31 days.',
      }),
    ),
    billable: Type.Optional(
      Type.Boolean({ description: 'Defaults to the task\'s billable when that is not null, else the project\'s; false without a project' }),
    ),
    projectId: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 64,
          description: 'An unarchived project the caller is a member of (administrators: any unarchived project); 422 otherwise',
        }),
      ),
    ),
    taskId: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 64,
          description: 'An unarchived task of the activity\'s project (422 otherwise, and without a project); its billable, when not null, is the default of the activity\'s',
        }),
      ),
    ),
    tagIds: Type.Optional(TagIds('Unarchived tags of the workspace (422 otherwise); repeats are collapsed')),
  },
  { description: 'Always created for the caller: userId and other server-owned fields in the body are ignored.' },
);
export type ActivityCreate = Static<typeof ActivityCreate>;

export const ActivityUpdate = Type.Object(
  {
    name: Type.Optional(Name),
    startedAt: Type.Optional(Timestamp()),
    endedAt: Type.Optional(
      Nullable(Timestamp('A time closes a running timer; null reopens the activity as a timer (409 if another timer of its owner runs)')),
    ),
    billable: Type.Optional(Type.Boolean()),
    projectId: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 64,
          description: 'null detaches the activity; a new project must be one its owner may book on (422 otherwise)',
        }),
      ),
    ),
    taskId: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 64,
          description:
            'A task of the project the activity has after this write: unarchived, unless it is the task the activity has already; ' +
            'a write that moves the activity to another project while it keeps a task of the old one is 422 (send the new task, or null)',
        }),
      ),
    ),
    tagIds: Type.Optional(TagIds('Replaces the tags: each unarchived, or already on the activity (an archived tag stays); repeats are collapsed')),
  },
  { description: 'Any subset of the fields. The owner and administrators only; userId cannot change.' },
);
export type ActivityUpdate = Static<typeof ActivityUpdate>;

export const ActivityQuery = Type.Object({
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'Keeps activities that end after this instant; running timers always match. ISO 8601 with an offset ' +
        '(URL-encode "+" as %2B; a "+" decoded to a space before the offset is read as "+").',
    }),
  ),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'Keeps activities that start before this instant (exclusive)' })),
  userId: Type.Optional(Type.String({ maxLength: 64, description: 'Only this user\'s activities' })),
  projectId: Type.Optional(AnyOf('Only activities of this project')),
  taskId: Type.Optional(AnyOf('Only activities of this task')),
  clientId: Type.Optional(AnyOf('Only activities of the projects of this client')),
  tagId: Type.Optional(AnyOf('Only activities carrying this tag')),
  limit: Type.Optional(
    Type.String({
      maxLength: 4,
      pattern: '^([1-9][0-9]{0,2}|1[0-9]{3}|2000)$',
      description:
        'At most this many entries (1 to 2000): one page. A full page carries `Link: <…>; rel="next"` to the next one ' +
        '(which may be empty). Without limit and cursor, the whole listing.',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      pattern: '^[A-Za-z0-9_-]+$',
      description:
        'Opaque: continues after the page whose `Link` gave it, with the same filters. Alone (without limit), the rest of the listing. 422 for a text no page gave.',
    }),
  ),
});
export type ActivityQuery = Static<typeof ActivityQuery>;

export const ActivityParams = Type.Object({ activityId: Id });
