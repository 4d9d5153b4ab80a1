import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { operation } from '../../route-kit/schemas.js';
import { changePreferences, preferences } from './preference-service.js';
import { NOT_A_KIND, Preferences, PreferencesUpdate, UserParams } from './schemas.js';

const TAG = 'Users';

/** The rules of a preferences body beyond its schema (the notification message as its 422 says it). */
const PREFERENCE_RULES =
  'Also: a `locale` that is no BCP 47 language tag, a `timeZone` that names no IANA time zone, or a key of ' +
  `\`notifications\` that ${NOT_A_KIND}`;

export const preferenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:userId/preferences',
    {
      config: { permission: 'preferences:manage' },
      schema: operation({
        operationId: 'getUserPreferences',
        tag: TAG,
        summary: 'The caller\'s own preferences',
        description:
          'Only the user themself (403 for anyone else, administrators included; 404 for an unknown user). Every ' +
          'field is present: locale and timeZone null when unset, the objects {} when empty.',
        params: UserParams,
        response: Type.Ref(Preferences),
        errors: { 403: 'Another user\'s preferences' },
      }),
    },
    async (request) => preferences(app.db, request.actor, request.params.userId),
  );

  app.put(
    '/users/:userId/preferences',
    {
      config: { permission: 'preferences:manage' },
      schema: operation({
        operationId: 'updateUserPreferences',
        tag: TAG,
        summary: 'Merge changes into the caller\'s own preferences',
        description:
          'Only the user themself (403 for anyone else, administrators included). Merged deeply: ' +
          '`{"notifications": {"activityCreated": {"email": false}}}` changes that one flag only. Answers the whole ' +
          'merged document. locale must be a BCP 47 tag and timeZone an IANA name (both stored in canonical form; ' +
          'null clears them); durationFormat.mode is HOURS_MINUTES, HOURS_MINUTES_SECONDS or DECIMAL; notification ' +
          'kinds are activityCreated, monthlyGoalReached, timesheetReminder, requestCreated, requestResolved, each ' +
          'with boolean dashboard, email, popup flags. Anything else there is 422. The service acts on the email flag ' +
          'of timesheetReminder, requestCreated and requestResolved (an explicit false stops that mail); the other ' +
          'flags are stored but nothing sends them (docs/rules.md §6 Preferences).',
        params: UserParams,
        body: PreferencesUpdate,
        response: Type.Ref(Preferences),
        errors: { 403: 'Another user\'s preferences', 422: PREFERENCE_RULES },
      }),
    },
    async (request) => changePreferences(app.db, request.actor, request.params.userId, request.body),
  );
};
