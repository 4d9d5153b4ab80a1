import type { Area } from '../area.js';
import { activityRoutes } from './routes.js';
import { Activity } from './schemas.js';

export const activitiesArea: Area = { name: 'activities', routes: activityRoutes, schemas: [Activity] };

/** The opaque cursors of GET /activities' pages, for other listings that page by startedAt and id. */
export { cursorOf, keyOfCursor, type ListKey } from './listing.js';
