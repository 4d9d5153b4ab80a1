import type { Area } from '../area.js';
import { taskRoutes } from './routes.js';
import { Task } from './schemas.js';

export const tasksArea: Area = { name: 'tasks', routes: taskRoutes, schemas: [Task] };
