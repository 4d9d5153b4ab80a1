import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { lockRowForWrite } from '../../db/locks.js';
import { forbidden, notFound } from '../../domain/errors.js';
import { operation } from '../../http/schemas.js';
import { findUser, readPreferencesDocument, writePreferencesDocument } from './repository.js';
import { mergePreferences, toPreferences } from './rules.js';
import { Preferences, PreferencesUpdate, UserParams } from './schemas.js';

const TAG = 'Users';

/** Preferences are the user's own (decisions §5): 404 for an unknown user, then 403 for anyone else, admins too. */
async function assertOwnPreferences(db: Db, request: FastifyRequest, userId: string): Promise<void> {
  if (!(await findUser(db, request.workspace.id, userId))) throw notFound('user');
  if (userId !== request.actor.userId) throw forbidden('Preferences can be read and changed only by the user themself.');
}

export const preferenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:userId/preferences',
    {
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
    async (request) => {
      const { userId } = request.params;
      await assertOwnPreferences(app.db, request, userId);
      return toPreferences(await readPreferencesDocument(app.db, userId));
    },
  );

  app.put(
    '/users/:userId/preferences',
    {
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
          'with boolean dashboard, email, popup flags. Anything else there is 422.',
        params: UserParams,
        body: PreferencesUpdate,
        response: Type.Ref(Preferences),
        errors: { 403: 'Another user\'s preferences', 422: 'Unknown locale, time zone, duration mode or notification kind' },
      }),
    },
    async (request) => {
      const { userId } = request.params;
      await assertOwnPreferences(app.db, request, userId);
      return app.db.transaction().execute(async (trx) => {
        // Serializes concurrent merges of one user's document: none of them loses another's change.
        await lockRowForWrite(trx, 'users', userId);
        const merged = mergePreferences(await readPreferencesDocument(trx, userId), request.body);
        await writePreferencesDocument(trx, userId, merged);
        return toPreferences(merged);
      });
    },
  );
};
