import { conflict } from '../../domain/errors.js';
import { cleanName, nameKey } from '../../lib/names.js';

/** A tag's name is trimmed and may not be blank; the schema bounds it to 100 characters (docs/rules.md §6 Tags). */
export const cleanTagName = (name: string): string => cleanName(name, '/body/name');

/** What makes two names the same tag: equal regardless of case, compared as project names are. */
export const tagNameKey = nameKey;

export const tagNameTaken = (name: string) => conflict(`A tag named "${name}" already exists in this workspace.`);
