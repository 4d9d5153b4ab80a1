import { accessArea } from './access/index.js';
import { activitiesArea } from './activities/index.js';
import type { Area } from './area.js';
import { changesArea } from './changes/index.js';
import { billingArea } from './billing/index.js';
import { geofencesArea } from './geofences/index.js';
import { mailArea } from './mail/index.js';
import { projectsArea } from './projects/index.js';
import { ratesArea } from './rates/index.js';
import { reportsArea } from './reports/index.js';
import { requestsArea } from './requests/index.js';
import { timesheetsArea } from './timesheets/index.js';
import { usersArea } from './users/index.js';
import { webhooksArea } from './webhooks/index.js';
import { workspaceArea } from './workspace/index.js';

/** Every resource area of the API, in the order their routes are registered. */
export const areas: Area[] = [accessArea, workspaceArea, projectsArea, activitiesArea, ratesArea, billingArea, geofencesArea, usersArea, reportsArea, requestsArea, timesheetsArea, mailArea, changesArea, webhooksArea];
