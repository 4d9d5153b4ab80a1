import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap, Name, Nullable, StringEnum, TIME_ZONE_PATTERN, Timestamp } from '../../route-kit/schemas.js';
import { ROLES } from '../../domain/actor.js';

const Role = StringEnum(ROLES, 'Workspace role');
const Avatar = Type.String({ maxLength: 65_536, description: 'Image URL (or data: URI), up to 64 KiB' });
const Phone = Type.String({ maxLength: 50 });
const Title = Type.String({ maxLength: 200, description: 'Job title' });

export const User = Type.Object(
  {
    id: Type.String(),
    email: Type.String({ format: 'email', description: 'The account\'s email, lower case' }),
    role: Role,
    archived: Type.Boolean({ description: 'Archived users keep their data; their tokens answer 401' }),
    joinedAt: Nullable(
      Timestamp(
        'When the user first signed in to this workspace; null while invited (invited by POST /users and not yet signed in). ' +
          'The first administrator and people single sign-on lets in are joined from their creation.',
      ),
    ),
    name: Type.Optional(Type.String({ description: 'Left out when the user has none' })),
    avatar: Type.Optional(Nullable(Avatar)),
    phone: Type.Optional(Nullable(Phone)),
    title: Type.Optional(Nullable(Title)),
  },
  {
    $id: 'User',
    title: 'User',
    description: 'A person in the workspace. Invited while joinedAt is null; active (joined) from their first sign-in here on.',
  },
);
export type User = Static<typeof User>;

export const UserMap = IdMap(Type.Ref(User), 'Every user of the workspace (the directory), archived ones included, by id, in creation order');

export const UserParams = Type.Object({ userId: Id });

export const UserInvite = Type.Object(
  {
    email: Type.String({ maxLength: 254, description: 'Case-insensitive: an email already in the workspace re-invites that user' }),
    name: Type.Optional(Name),
    role: Type.Optional(StringEnum(ROLES, 'Defaults to User')),
    title: Type.Optional(Nullable(Title)),
  },
  { description: 'email is required; name, role (default User) and title are optional. Unknown fields are ignored.' },
);
export type UserInvite = Static<typeof UserInvite>;

export const UserUpdate = Type.Object(
  {
    name: Type.Optional(Name),
    avatar: Type.Optional(Nullable(Avatar)),
    phone: Type.Optional(Nullable(Phone)),
    title: Type.Optional(Nullable(Title)),
    role: Type.Optional(StringEnum(ROLES, 'Administrators only')),
    archived: Type.Optional(Type.Boolean({ description: 'Administrators only' })),
  },
  {
    description:
      'Any subset. name, avatar, phone, title: the user themself or an administrator (blank phone/title/avatar clear to null). ' +
      'role, archived: administrators only. email cannot be changed here (it is the account\'s).',
  },
);
export type UserUpdate = Static<typeof UserUpdate>;

/* Preferences (docs/rules.md §4, §6). */

export const NOTIFICATION_KINDS = [
  'activityCreated',
  'monthlyGoalReached',
  'timesheetReminder',
  'requestCreated',
  'requestResolved',
] as const;

/** The 422 message for a key of `notifications` that is not a notification kind. */
export const NOT_A_KIND = `is not a notification kind: use ${NOTIFICATION_KINDS.join(', ')}`;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const DURATION_MODES = ['HOURS_MINUTES', 'HOURS_MINUTES_SECONDS', 'DECIMAL'] as const;

export const CHANNEL_KEYS = ['dashboard', 'email', 'popup'] as const;
export const DATE_TIME_FORMAT_KEYS = ['clock24Hour', 'numeric', 'showSeconds'] as const;
export const DURATION_FORMAT_KEYS = ['compact', 'mode', 'showSeconds'] as const;
export const DESKTOP_KEYS = ['startTrackingOnStartup', 'stopTrackingOnShutdown'] as const;

const Channels = Type.Object(
  {
    dashboard: Type.Optional(Type.Boolean()),
    email: Type.Optional(Type.Boolean()),
    popup: Type.Optional(Type.Boolean()),
  },
  { description: 'Channel flags of one notification kind; a flag never set is left out' },
);
const DateTimeFormat = Type.Object({
  clock24Hour: Type.Optional(Type.Boolean()),
  numeric: Type.Optional(Type.Boolean()),
  showSeconds: Type.Optional(Type.Boolean()),
});
const DurationFormat = Type.Object({
  compact: Type.Optional(Type.Boolean()),
  mode: Type.Optional(StringEnum(DURATION_MODES)),
  showSeconds: Type.Optional(Type.Boolean()),
});
const Desktop = Type.Object({
  startTrackingOnStartup: Type.Optional(Type.Boolean()),
  stopTrackingOnShutdown: Type.Optional(Type.Boolean()),
});
const OptionalChannels = Type.Optional(Channels);
const notificationProperties = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, OptionalChannels])) as Record<
  NotificationKind,
  typeof OptionalChannels
>;
const Notifications = (description: string) => Type.Object(notificationProperties, { description });

export const Preferences = Type.Object(
  {
    locale: Type.Optional(Nullable(Type.String({ description: 'BCP 47 language tag; null when unset' }))),
    timeZone: Type.Optional(Nullable(Type.String({ description: 'IANA time-zone name; null when unset' }))),
    dateTimeFormat: Type.Optional(DateTimeFormat),
    durationFormat: Type.Optional(DurationFormat),
    desktop: Type.Optional(Desktop),
    notifications: Type.Optional(Notifications('Channel flags by notification kind; {} when none is set')),
  },
  {
    $id: 'UserPreferences',
    title: 'UserPreferences',
    description: 'Every field is always present in answers: locale and timeZone null when unset, the objects {} when empty.',
  },
);
export type Preferences = Static<typeof Preferences>;

export const PreferencesUpdate = Type.Object(
  {
    locale: Type.Optional(Nullable(Type.String({ maxLength: 100, pattern: '^[A-Za-z0-9]{1,8}(?:-[A-Za-z0-9]{1,8})*$', description: 'BCP 47 (stored canonical); null clears' }))),
    timeZone: Type.Optional(Nullable(Type.String({ maxLength: 64, pattern: TIME_ZONE_PATTERN, description: 'IANA name (stored canonical); null clears' }))),
    dateTimeFormat: Type.Optional(DateTimeFormat),
    durationFormat: Type.Optional(DurationFormat),
    desktop: Type.Optional(Desktop),
    notifications: Type.Optional(
      Notifications(`Any of the kinds ${NOTIFICATION_KINDS.join(', ')}, each with any of its flags; another kind is 422`),
    ),
  },
  {
    description:
      'Any subset, merged deeply into the stored document: a flag or key left out keeps its value. Unknown keys inside ' +
      'dateTimeFormat, durationFormat, desktop and a kind\'s flags are ignored; an unknown notification kind is 422.',
  },
);
export type PreferencesUpdate = Static<typeof PreferencesUpdate>;
