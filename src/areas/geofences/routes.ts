import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { isForeignKeyViolation } from '../../db/errors.js';
import { notFound } from '../../domain/errors.js';
import { Empty, operation } from '../../http/schemas.js';
import {
  deleteGeofence,
  findGeofence,
  insertGeofence,
  listGeofences,
  updateGeofence,
  type GeofenceValues,
} from './repository.js';
import { assertProjectReference, assertRadius, cleanGeofenceName, unknownProject } from './rules.js';
import { Geofence, GeofenceCreate, GeofenceMap, GeofenceParams, GeofenceUpdate } from './schemas.js';

const TAG = 'Geofences';
const BOUNDS =
  'latitude −90…90, longitude −180…180 (degrees), radius in metres > 0 and ≤ 100,000 (422 otherwise); ' +
  'projectId null or a project of this workspace (422 otherwise); name is trimmed, 1–200 characters.';
const RECORD =
  'Optional fields without a value are left out of the record; projectId is always present, null when the ' +
  'geofence has no project. Deleting a project keeps its geofences with projectId null.';

/** Runs a write that references a project; a project deleted meanwhile breaks the foreign key: 422. */
async function referencingProject<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw unknownProject();
    throw error;
  }
}

export const geofenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/geofences',
    {
      config: { permission: 'geofences:read' },
      schema: operation({
        operationId: 'listGeofences',
        tag: TAG,
        summary: 'The workspace\'s geofences',
        description: `Everyone reads. ${RECORD}`,
        response: GeofenceMap,
      }),
    },
    async (request) => {
      const geofences = await listGeofences(app.db, request.workspace.id);
      return Object.fromEntries(geofences.map((geofence) => [geofence.id, geofence]));
    },
  );

  app.post(
    '/geofences',
    {
      config: { permission: 'geofences:write' },
      schema: operation({
        operationId: 'createGeofence',
        tag: TAG,
        summary: 'Create a geofence',
        description: `Administrators only. ${BOUNDS} ${RECORD}`,
        body: GeofenceCreate,
        response: Type.Ref(Geofence),
        errors: { 403: 'Not an administrator', 422: 'Out-of-range coordinates or radius, unknown projectId' },
      }),
    },
    async (request) => {
      const body = request.body;
      const organizationId = request.workspace.id;
      assertRadius(body.radius);
      const values: GeofenceValues = {
        latitude: body.latitude,
        longitude: body.longitude,
        radius: body.radius,
        name: cleanGeofenceName(body.name ?? null),
        enterAction: body.enterAction ?? null,
        exitAction: body.exitAction ?? null,
        projectId: body.projectId ?? null,
      };
      return referencingProject(() =>
        app.db.transaction().execute(async (trx) => {
          await assertProjectReference(trx, organizationId, values.projectId);
          return insertGeofence(trx, organizationId, values);
        }),
      );
    },
  );

  app.get(
    '/geofences/:geofenceId',
    {
      config: { permission: 'geofences:read' },
      schema: operation({
        operationId: 'getGeofence',
        tag: TAG,
        summary: 'One geofence',
        description: `Everyone reads. ${RECORD}`,
        params: GeofenceParams,
        response: Type.Ref(Geofence),
      }),
    },
    async (request) => {
      const geofence = await findGeofence(app.db, request.workspace.id, request.params.geofenceId);
      if (!geofence) throw notFound('geofence');
      return geofence;
    },
  );

  app.put(
    '/geofences/:geofenceId',
    {
      config: { permission: 'geofences:write' },
      schema: operation({
        operationId: 'updateGeofence',
        tag: TAG,
        summary: 'Change a geofence',
        description:
          `Administrators only. A partial update: any subset of the fields, the others are kept. ${BOUNDS} ` +
          `null removes name, enterAction or exitAction, and detaches the project. ${RECORD}`,
        params: GeofenceParams,
        body: GeofenceUpdate,
        response: Type.Ref(Geofence),
        errors: { 403: 'Not an administrator', 422: 'Out-of-range coordinates or radius, unknown projectId' },
      }),
    },
    async (request) => {
      const body = request.body;
      const organizationId = request.workspace.id;
      const id = request.params.geofenceId;
      if (body.radius !== undefined) assertRadius(body.radius);
      const changes: Partial<GeofenceValues> = {
        latitude: body.latitude,
        longitude: body.longitude,
        radius: body.radius,
        name: body.name === undefined ? undefined : cleanGeofenceName(body.name),
        enterAction: body.enterAction,
        exitAction: body.exitAction,
        projectId: body.projectId,
      };
      return referencingProject(() =>
        app.db.transaction().execute(async (trx) => {
          if (!(await findGeofence(trx, organizationId, id))) throw notFound('geofence');
          if (changes.projectId !== undefined) await assertProjectReference(trx, organizationId, changes.projectId);
          const updated = await updateGeofence(trx, organizationId, id, changes);
          const geofence = updated ? await findGeofence(trx, organizationId, id) : undefined;
          if (!geofence) throw notFound('geofence');
          return geofence;
        }),
      );
    },
  );

  app.delete(
    '/geofences/:geofenceId',
    {
      config: { permission: 'geofences:write' },
      schema: operation({
        operationId: 'deleteGeofence',
        tag: TAG,
        summary: 'Delete a geofence',
        description: 'Administrators only. Permanent.',
        params: GeofenceParams,
        response: Empty,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => {
      if (!(await deleteGeofence(app.db, request.workspace.id, request.params.geofenceId))) {
        throw notFound('geofence');
      }
      return {};
    },
  );
};
