import type { Area } from '../area.js';
import { activityRoutes } from './routes.js';
import { Activity } from './schemas.js';

export const activitiesArea: Area = { name: 'activities', routes: activityRoutes, schemas: [Activity] };
