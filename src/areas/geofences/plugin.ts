import type { Area } from '../area.js';
import { geofenceRoutes } from './routes.js';
import { Geofence } from './schemas.js';

export const geofencesArea: Area = { name: 'geofences', routes: geofenceRoutes, schemas: [Geofence] };
