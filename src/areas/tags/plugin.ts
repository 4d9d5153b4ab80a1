import type { Area } from '../area.js';
import { tagRoutes } from './routes.js';
import { Tag } from './schemas.js';

export const tagsArea: Area = { name: 'tags', routes: tagRoutes, schemas: [Tag] };
