import type { Area } from '../area.js';
import { importRoutes } from './routes.js';
import { Import } from './schemas.js';

export const importsArea: Area = { name: 'imports', routes: importRoutes, schemas: [Import] };
