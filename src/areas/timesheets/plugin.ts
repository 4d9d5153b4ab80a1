import type { Area } from '../area.js';
import { timesheetRoutes } from './routes.js';
import { TimesheetLock, TimesheetReminder } from './schemas.js';

export const timesheetsArea: Area = { name: 'timesheets', routes: timesheetRoutes, schemas: [TimesheetLock, TimesheetReminder] };
