import { accessArea } from './access/plugin.js';
import { activitiesArea } from './activities/plugin.js';
import type { Area } from './area.js';
import { changesArea } from './changes/plugin.js';
import { clientsArea } from './clients/plugin.js';
import { billingArea } from './billing/plugin.js';
import { geofencesArea } from './geofences/plugin.js';
import { importsArea } from './imports/plugin.js';
import { mailArea } from './mail/plugin.js';
import { projectsArea } from './projects/plugin.js';
import { ratesArea } from './rates/plugin.js';
import { reportsArea } from './reports/plugin.js';
import { requestsArea } from './requests/plugin.js';
import { tagsArea } from './tags/plugin.js';
import { tasksArea } from './tasks/plugin.js';
import { timesheetsArea } from './timesheets/plugin.js';
import { usersArea } from './users/plugin.js';
import { webhooksArea } from './webhooks/plugin.js';
import { workspaceArea } from './workspace/plugin.js';

/** Every resource area of the API, in the order their routes are registered. */
export const areas: Area[] = [accessArea, workspaceArea, projectsArea, activitiesArea, ratesArea, billingArea, geofencesArea, tagsArea, usersArea, reportsArea, requestsArea, timesheetsArea, mailArea, changesArea, webhooksArea, clientsArea, tasksArea, importsArea];
