import { conflict, invalid } from '../../domain/errors.js';
import { cleanName, nameKey } from '../../lib/names.js';

/** A client's name is trimmed and must stay 1–200 characters (docs/rules.md §6 Clients). */
export const cleanClientName = (name: string): string => cleanName(name, '/body/name');

/**
 * The key of the case-insensitive name uniqueness (`clients_name_unique`), as projects key theirs:
 * trimmed, NFC-normalized, then full case folding approximated by upper- then lower-casing.
 */
export const clientNameKey = nameKey;

export const clientNameTaken = (name: string) => conflict(`A client named "${name}" already exists in this workspace.`);

export const clientStillHasProjects = () =>
  conflict('The client still has projects: archive it, or move its projects to another client (or none) first.');

/** 422 for a project's clientId that names no unarchived client of this workspace. */
export const unusableClient = () =>
  invalid('/body/clientId', 'must be null or the id of an unarchived client of this workspace');
