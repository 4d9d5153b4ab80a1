import { invalid } from '../../domain/errors.js';

/** A project's name is trimmed and may not be blank. */
export function trimmedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw invalid('/body/name', 'must not be blank');
  return trimmed;
}

/**
 * The colors a project is given when its creation names none, in order: the workspace's n-th project
 * (counting those it has when it is created) takes the n-th, round again after the last (docs/rules.md §6 Projects).
 */
export const PROJECT_PALETTE = [
  '#ef4444', '#f97316', '#f59e0b', '#84cc16', '#22c55e', '#14b8a6',
  '#06b6d4', '#3b82f6', '#6366f1', '#8b5cf6', '#d946ef', '#ec4899',
] as const;

/** The palette's color for a workspace that has `projectCount` projects. */
export const defaultProjectColor = (projectCount: number): string => PROJECT_PALETTE[projectCount % PROJECT_PALETTE.length];
