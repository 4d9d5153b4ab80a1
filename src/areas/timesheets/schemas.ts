import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap, Nullable, Timestamp } from '../../route-kit/schemas.js';

export const TimesheetLock = Type.Object(
  {
    id: Type.String(),
    userId: Type.String(),
    year: Type.Integer({ description: 'ISO week-numbering year' }),
    week: Type.Integer({ description: 'ISO week number, 1–53' }),
    unlockedTo: Nullable(Timestamp('While in the future, the week is open despite the lock')),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  },
  { $id: 'TimesheetLock', title: 'TimesheetLock' },
);
export type TimesheetLock = Static<typeof TimesheetLock>;

/** A week's timesheet reminder as the change feed describes it (docs/rules.md §6 Timesheet schedule). */
export const TimesheetReminder = Type.Object(
  {
    year: Type.Integer({ description: 'ISO week-numbering year of the week reminded of' }),
    week: Type.Integer({ description: 'ISO week number of the week reminded of' }),
    messages: Type.Integer({ description: 'How many reminder messages were written' }),
    sentAt: Timestamp(),
  },
  { $id: 'TimesheetReminder', title: 'TimesheetReminder' },
);
export type TimesheetReminder = Static<typeof TimesheetReminder>;

export const TimesheetLockMap = IdMap(Type.Ref(TimesheetLock), 'Timesheet locks by id, in creation order');

export const LockCreate = Type.Object({
  userId: Type.String({ maxLength: 64, description: 'A user of this workspace (archived ones included)' }),
  year: Type.Integer({ minimum: 1, maximum: 9999, description: 'ISO week-numbering year' }),
  week: Type.Integer({ minimum: 1, maximum: 53, description: 'ISO week number; 53 only in years that have one' }),
  unlockedTo: Type.Optional(
    Nullable(Timestamp('End of a temporary unlock window, with an offset; null or absent: locked outright')),
  ),
});
export type LockCreate = Static<typeof LockCreate>;

export const LockParams = Type.Object({ lockId: Id });

export const LocksQuery = Type.Object({
  userId: Type.Optional(Type.String({ maxLength: 64, description: 'Only this user\'s locks' })),
  year: Type.Optional(Type.String({ maxLength: 4, pattern: '^[0-9]{4}$', description: 'Only locks of this ISO week-numbering year (four digits)' })),
});
export type LocksQuery = Static<typeof LocksQuery>;

export const ReasonBody = Type.Object({
  reason: Type.String({ maxLength: 1000, description: 'Why the flow runs (kept in the server log)' }),
});

/** OpenAPI 3.0 has no null type: a nullable object that is always null. */
export const NullAnswer = Type.Unsafe<null>({
  type: 'object',
  nullable: true,
  description: 'Always JSON null',
});
