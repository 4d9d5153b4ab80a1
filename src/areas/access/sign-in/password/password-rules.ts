import { invalid } from '../../../../domain/errors.js';
import type { SignInMethod } from '../../sessions/index.js';

/** Password length in Unicode code points (NIST SP 800-63B): at least 12, at most 256, no composition rules. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export function assertPasswordLength(password: string, pointer: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN) throw invalid(pointer, `must be at least ${PASSWORD_MIN} characters`);
  if (length > PASSWORD_MAX) throw invalid(pointer, `must be at most ${PASSWORD_MAX} characters`);
}

/** How long after a link sign-in a password may be set without the current one. */
export const PASSWORD_WINDOW_MINUTES = 10;

const LINK_METHODS: ReadonlySet<SignInMethod> = new Set<SignInMethod>(['link', 'invitation', 'password-reset']);

/** Whether a session began with a mailed link (which proved the mailbox) less than PASSWORD_WINDOW_MINUTES ago. */
export const isFreshLinkSession = (origin: { method: SignInMethod; createdAt: string }, now: string): boolean =>
  LINK_METHODS.has(origin.method) && Date.parse(now) - Date.parse(origin.createdAt) < PASSWORD_WINDOW_MINUTES * 60_000;
