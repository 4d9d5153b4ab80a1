import { conflict, notFound } from '../../domain/errors.js';
import { cleanName, nameKey } from '../../lib/names.js';

/** A task's name is trimmed and must stay 1–200 characters (docs/rules.md §6 Tasks). */
export const cleanTaskName = (name: string): string => cleanName(name, '/body/name');

/** What makes two names the same task of a project: equal regardless of case, compared as project names are. */
export const taskNameKey = nameKey;

export const taskNameTaken = (name: string) => conflict(`A task named "${name}" already exists in this project.`);

export const unknownTask = () => notFound('task');
