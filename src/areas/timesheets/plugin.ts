import type { Area } from '../area.js';
import { timesheetRoutes } from './routes.js';
import { TimesheetLock } from './schemas.js';

export const timesheetsArea: Area = { name: 'timesheets', routes: timesheetRoutes, schemas: [TimesheetLock] };
