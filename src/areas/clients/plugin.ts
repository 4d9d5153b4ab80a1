import type { Area } from '../area.js';
import { clientRoutes } from './routes.js';
import { Client } from './schemas.js';

export const clientsArea: Area = { name: 'clients', routes: clientRoutes, schemas: [Client] };
