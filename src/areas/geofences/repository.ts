import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { GeofencesTable } from '../../db/tables/geofences.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { Geofence } from './schemas.js';

type GeofenceRow = Selectable<GeofencesTable>;

export interface GeofenceValues {
  latitude: number;
  longitude: number;
  radius: number;
  name: string | null;
  enterAction: string | null;
  exitAction: string | null;
  projectId: string | null;
}

export async function listGeofences(db: Db, organizationId: string): Promise<Geofence[]> {
  const rows = await db
    .selectFrom('geofences')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toGeofence);
}

export async function findGeofence(db: Db, organizationId: string, id: string): Promise<Geofence | undefined> {
  const row = await db
    .selectFrom('geofences')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row && toGeofence(row);
}

export async function insertGeofence(db: Db, organizationId: string, values: GeofenceValues): Promise<Geofence> {
  const now = nowIso();
  const row: GeofenceRow = {
    id: newId(),
    organization_id: organizationId,
    project_id: values.projectId,
    name: values.name,
    latitude: values.latitude,
    longitude: values.longitude,
    radius: values.radius,
    enter_action: values.enterAction,
    exit_action: values.exitAction,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('geofences').values(row).execute();
  return toGeofence(row);
}

/** Applies the given changes; false when the workspace has no such geofence. */
export async function updateGeofence(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<GeofenceValues>,
): Promise<boolean> {
  const set: Updateable<GeofencesTable> = { updated_at: nowIso() };
  if (changes.latitude !== undefined) set.latitude = changes.latitude;
  if (changes.longitude !== undefined) set.longitude = changes.longitude;
  if (changes.radius !== undefined) set.radius = changes.radius;
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.enterAction !== undefined) set.enter_action = changes.enterAction;
  if (changes.exitAction !== undefined) set.exit_action = changes.exitAction;
  if (changes.projectId !== undefined) set.project_id = changes.projectId;
  const result = await db
    .updateTable('geofences')
    .set(set)
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteGeofence(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('geofences')
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The API record: optional fields without a value are left out; projectId is always there (null when none). */
function toGeofence(row: GeofenceRow): Geofence {
  const geofence: Geofence = {
    id: row.id,
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    radius: Number(row.radius),
    projectId: row.project_id,
  };
  if (row.name !== null) geofence.name = row.name;
  if (row.enter_action !== null) geofence.enterAction = row.enter_action;
  if (row.exit_action !== null) geofence.exitAction = row.exit_action;
  return geofence;
}
