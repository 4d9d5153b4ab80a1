import { Type, type Static } from '@sinclair/typebox';
import { CURRENCY_PATTERN, Name, Notes, Nullable, StringEnum, TIME_ZONE_PATTERN } from '../../route-kit/schemas.js';

const TimeOfDay = Type.String({ maxLength: 5, pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24 h' });
const RoundingMode = StringEnum(['NEAREST', 'UP', 'DOWN']);
const OnboardingStep = Type.Object({ done: Type.Boolean(), viewed: Type.Boolean() });

export const Organization = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    currency: Type.String({ description: 'ISO 4217 code' }),
    coreHours: Type.Object({ start: TimeOfDay, end: TimeOfDay }),
    lockingTimesheets: Type.Object({
      enabled: Type.Boolean(),
      timeZone: Nullable(Type.String({ description: 'IANA name; null means the organization time zone' })),
      unlockDuration: Type.Integer({ description: 'Hours a resolved unlock request keeps a week open' }),
      week: Nullable(Type.Integer({ description: 'ISO week of the last automatic lock' })),
      year: Nullable(Type.Integer({ description: 'ISO week-numbering year of the last automatic lock' })),
    }),
    holidays: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Free-form: country, excluded' })),
    notes: Type.Optional(Type.String()),
    onboarding: Type.Optional(
      Type.Object({
        assignMembers: OnboardingStep,
        inviteMembers: OnboardingStep,
        organization: OnboardingStep,
        preferences: OnboardingStep,
        projects: OnboardingStep,
      }),
    ),
    plan: Type.Optional(Type.String()),
    rounding: Type.Optional(
      Type.Object({
        enabled: Type.Boolean(),
        interval: Type.Integer({ description: 'Minutes' }),
        mode: RoundingMode,
      }),
    ),
    timeZone: Type.Optional(Type.String({ description: 'IANA time-zone name' })),
  },
  { $id: 'Organization', title: 'Organization' },
);
export type Organization = Static<typeof Organization>;

export const OrganizationUpdate = Type.Object(
  {
    name: Type.Optional(Name),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, pattern: CURRENCY_PATTERN, description: 'ISO 4217 code, upper case' })),
    notes: Type.Optional(Notes),
    coreHours: Type.Optional(Type.Object({ start: Type.Optional(TimeOfDay), end: Type.Optional(TimeOfDay) })),
    holidays: Type.Optional(
      Type.Object(
        {
          country: Type.Optional(Type.String({ maxLength: 64 })),
          excluded: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 400 })),
        },
        { additionalProperties: true, maxProperties: 20 },
      ),
    ),
    rounding: Type.Optional(
      Type.Object({
        enabled: Type.Optional(Type.Boolean()),
        interval: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440, description: 'Minutes' })),
        mode: Type.Optional(RoundingMode),
      }),
    ),
    lockingTimesheets: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          unlockDuration: Type.Optional(Type.Integer({ minimum: 1, maximum: 8760, description: 'Hours' })),
        },
        { description: 'Only enabled and unlockDuration are accepted; year, week and timeZone are the server\'s.' },
      ),
    ),
    timeZone: Type.Optional(Type.String({ maxLength: 64, pattern: TIME_ZONE_PATTERN, description: 'IANA time-zone name' })),
  },
  { description: 'Any subset of the fields; nested objects are merged. Unknown fields are ignored.' },
);
export type OrganizationUpdate = Static<typeof OrganizationUpdate>;

export const OrganizationSummary = Type.Object({
  active: Type.Boolean(),
  domain: Type.String(),
  name: Type.String(),
});

export const OrganizationDeleted = Type.Object({
  domain: Type.String(),
  redirectUrl: Nullable(Type.String({ format: 'uri' })),
});

export const RenameBody = Type.Object({
  domain: Type.String({ maxLength: 63, description: 'The new subdomain: 3–63 of a-z, 0-9, -; not starting with "xn--" (punycode)' }),
});

export const RenameResult = Type.Object({ domain: Type.String() });
