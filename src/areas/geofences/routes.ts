import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import { Geofence, GeofenceCreate, GeofenceMap, GeofenceParams, GeofenceUpdate } from './schemas.js';
import { changeGeofence, createGeofence, geofence, removeGeofence, workspaceGeofences } from './service.js';

const TAG = 'Geofences';
const BOUNDS =
  'latitude −90…90, longitude −180…180 (degrees), radius in metres > 0 and ≤ 100,000 (422 otherwise); ' +
  'projectId null or a project of this workspace (422 otherwise); name is trimmed, 1–200 characters.';
const GEOFENCE_RULES =
  'Also: a `radius` of 0 (it must be greater than 0), a `projectId` that is neither null nor a project of this ' +
  'workspace, or a `name` blank once trimmed';
const RECORD =
  'Optional fields without a value are left out of the record; projectId is always present, null when the ' +
  'geofence has no project. Deleting a project keeps its geofences with projectId null.';

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
      const geofences = await workspaceGeofences(app.db, request.actor);
      return Object.fromEntries(geofences.map((found) => [found.id, found]));
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
        errors: { 403: 'Not an administrator', 422: GEOFENCE_RULES },
      }),
    },
    async (request) => createGeofence(app.db, request.actor, request.body),
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
    async (request) => geofence(app.db, request.actor, request.params.geofenceId),
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
        errors: { 403: 'Not an administrator', 422: GEOFENCE_RULES },
      }),
    },
    async (request) => changeGeofence(app.db, request.actor, request.params.geofenceId, request.body),
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
      await removeGeofence(app.db, request.actor, request.params.geofenceId);
      return {};
    },
  );
};
