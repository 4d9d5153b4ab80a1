import type { TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';

/** One resource area: its routes (mounted under /api) and the named schemas they refer to by $id. */
export interface Area {
  name: string;
  routes: FastifyPluginAsync;
  /** Pages served outside /api (HTML for people, e.g. the pages mailed links open), registered at the root. */
  pages?: FastifyPluginAsync;
  /** Schemas with an `$id`, shared as OpenAPI components and referenced with Type.Ref. */
  schemas?: TSchema[];
}
