import { invalid } from '../../domain/errors.js';
import { cleanName } from '../../lib/names.js';

/** Radius > 0 (the schema bounds the maximum; OpenAPI 3.0 cannot state an exclusive minimum Ajv reads). */
export function assertRadius(radius: number): void {
  if (!(radius > 0)) throw invalid('/body/radius', 'must be greater than 0 metres');
}

/** A name is trimmed and must stay 1–200 characters; null (on update) removes it. */
export function cleanGeofenceName(name: string | null): string | null {
  return name === null ? null : cleanName(name, '/body/name');
}

/** 422 for a projectId that names no project of this workspace (or one deleted meanwhile). */
export const unknownProject = () =>
  invalid('/body/projectId', 'must be null or the id of a project of this workspace');
