import { invalid } from '../../domain/errors.js';

/** A project's name is trimmed and may not be blank. */
export function trimmedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw invalid('/body/name', 'must not be blank');
  return trimmed;
}
