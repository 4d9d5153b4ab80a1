import { accessArea } from './access/index.js';
import type { Area } from './area.js';
import { billingArea } from './billing/index.js';
import { workspaceArea } from './workspace/index.js';

/** Every resource area of the API, in the order their routes are registered. */
export const areas: Area[] = [accessArea, workspaceArea, billingArea];
