import type { Area } from '../area.js';
import { requestRoutes } from './routes.js';
import { WorkflowRequest, WorkflowRequestDetail } from './schemas.js';

/** Workflow requests: approvals, assignments, role changes, timesheet unlocks and support access. */
export const requestsArea: Area = { name: 'requests', routes: requestRoutes, schemas: [WorkflowRequest, WorkflowRequestDetail] };
