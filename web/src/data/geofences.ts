import { signal } from '@preact/signals';
import { api, type Schemas } from '../api/client.js';

export type Geofence = Schemas['Geofence'];
/** What the geofence form sends: a name (null removes it from one being changed), the place and a project. */
export interface GeofenceFields {
  name?: string | null;
  latitude: number;
  longitude: number;
  radius: number;
  projectId: string | null;
}

/** The workspace's geofences, by name. */
export const geofences = signal<Geofence[]>([]);

export async function loadGeofences(): Promise<void> {
  const answer = await api.GET('/geofences');
  if (answer.data) geofences.value = Object.values(answer.data).sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
}

/** Adds a geofence, or changes `editing` (administrators); the list reloads once it is saved. */
export async function saveGeofence(editing: Geofence | null, body: GeofenceFields) {
  const answer = editing
    ? await api.PUT('/geofences/{geofenceId}', { params: { path: { geofenceId: editing.id } }, body })
    : await api.POST('/geofences', { body: { ...body, name: body.name ?? undefined } });
  if (!answer.error) void loadGeofences();
  return answer;
}

export async function deleteGeofence(geofenceId: string) {
  const answer = await api.DELETE('/geofences/{geofenceId}', { params: { path: { geofenceId } } });
  await loadGeofences();
  return answer;
}
