import { invalid } from '../domain/errors.js';

/**
 * Names are trimmed; what is left must still be 1–200 characters (422 at the pointer otherwise),
 * counted in code points as the schema's maxLength counts them (an emoji is one character, not two).
 */
export function cleanName(value: string, pointer: string): string {
  const name = value.trim();
  if (name.length === 0) throw invalid(pointer, 'must not be blank');
  if (name.length > 200 && Array.from(name).length > 200) throw invalid(pointer, 'must be at most 200 characters');
  return name;
}

/**
 * The key of a name's uniqueness without regard to case (clients, projects, tasks, tags): trimmed,
 * NFC, case folded by upper then lower case, the same on both stores.
 */
export const nameKey = (name: string): string => name.trim().normalize('NFC').toUpperCase().toLowerCase();
