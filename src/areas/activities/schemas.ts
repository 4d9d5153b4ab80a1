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
  },
  { $id: 'Activity', title: 'Activity' },
);
export type Activity = Static<typeof Activity>;

export const ActivityMap = IdMap(
  Type.Ref(Activity),
  'Activities visible to the caller by id, ordered by startedAt (then id): an administrator sees every activity ' +
    'of the workspace, a User their own plus those on projects they are a project admin of.',
);

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
    billable: Type.Optional(Type.Boolean({ description: 'Defaults to the project\'s billable, false without a project' })),
    projectId: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 64,
          description: 'An unarchived project the caller is a member of (administrators: any unarchived project); 422 otherwise',
        }),
      ),
    ),
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
  projectId: Type.Optional(Type.String({ maxLength: 64, description: 'Only activities of this project' })),
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
