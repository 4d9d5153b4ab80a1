export interface GeofencesTable {
  id: string;
  organization_id: string;
  /** Null when the geofence names no project, or its project was deleted. */
  project_id: string | null;
  name: string | null;
  latitude: number;
  longitude: number;
  /** Metres. */
  radius: number;
  enter_action: string | null;
  exit_action: string | null;
  created_at: string;
  updated_at: string;
}
