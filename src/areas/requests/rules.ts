import { conflict, invalid } from '../../domain/errors.js';

export const notPending = () => conflict('Only a PENDING request can be resolved; this one is closed.');

/** The reason support gives for an impersonation request: trimmed, 1–1000 characters. */
export function impersonationReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length === 0) throw invalid('/reason', 'must not be blank');
  if (trimmed.length > 1000) throw invalid('/reason', 'must be at most 1000 characters');
  return trimmed;
}
