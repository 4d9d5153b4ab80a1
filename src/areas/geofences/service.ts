import type { Db, Trx } from '../../db/database.js';
import { withConstraintProblems } from '../../db/errors.js';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import {
  deleteGeofence,
  findGeofence,
  insertGeofence,
  listGeofences,
  updateGeofence,
  type GeofenceValues,
} from './repository.js';
import { projectOfWorkspaceExists } from '../projects/index.js';
import { assertRadius, cleanGeofenceName, unknownProject } from './rules.js';
import type { Geofence, GeofenceCreate, GeofenceUpdate } from './schemas.js';

/** projectId is null or a project of this workspace (422 otherwise, also for another workspace's project). */
async function assertProjectReference(trx: Trx, organizationId: string, projectId: string | null): Promise<void> {
  if (projectId === null) return;
  if (!(await projectOfWorkspaceExists(trx, organizationId, projectId))) throw unknownProject();
}

/** A project deleted between the check and the write breaks the foreign key: the same 422 as an unknown one. */
const projectDeletedMeanwhile = { foreignKey: unknownProject };

export async function workspaceGeofences(db: Db, actor: Actor): Promise<Geofence[]> {
  return listGeofences(db, actor.organizationId);
}

export async function geofence(db: Db, actor: Actor, id: string): Promise<Geofence> {
  const found = await findGeofence(db, actor.organizationId, id);
  if (!found) throw notFound('geofence');
  return found;
}

export async function createGeofence(db: Db, actor: Actor, body: GeofenceCreate): Promise<Geofence> {
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
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        await assertProjectReference(trx, actor.organizationId, values.projectId);
        return insertGeofence(trx, actor.organizationId, values);
      }),
    projectDeletedMeanwhile,
  );
}

/** A partial update: the fields given change, the others are kept; null removes an optional one. */
export async function changeGeofence(db: Db, actor: Actor, id: string, body: GeofenceUpdate): Promise<Geofence> {
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
  const { organizationId } = actor;
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        if (!(await findGeofence(trx, organizationId, id))) throw notFound('geofence');
        if (changes.projectId !== undefined) await assertProjectReference(trx, organizationId, changes.projectId);
        const updated = await updateGeofence(trx, organizationId, id, changes);
        const geofence = updated ? await findGeofence(trx, organizationId, id) : undefined;
        if (!geofence) throw notFound('geofence');
        return geofence;
      }),
    projectDeletedMeanwhile,
  );
}

export async function removeGeofence(db: Db, actor: Actor, id: string): Promise<void> {
  if (!(await deleteGeofence(db, actor.organizationId, id))) throw notFound('geofence');
}
