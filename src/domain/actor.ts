/** Who acts: built once per token by authentication (src/http/authenticate.ts) and set on the request. */

export const ROLES = ['Administrator', 'User'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What kind of bearer token the actor came with: an API key, a sign-in session, or a support session
 * (a session that acts as one user of one workspace, issued by a resolved impersonation request).
 */
export type TokenKind = 'apiKey' | 'session' | 'support';

export interface Actor {
  readonly organizationId: string;
  readonly userId: string;
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
  /** The bearer value in use (GET /auth returns it). */
  readonly token: string;
  readonly tokenKind: TokenKind;
  /** The session in use, when the token is a session (sign-out ends it; the list marks it current). */
  readonly sessionId?: string;
  /**
   * Set for a person's session in a workspace that requires two-factor authentication while their
   * account has none: only the permissions of ALLOWED_BEFORE_ENROLMENT (domain/policy.ts) are held.
   */
  readonly mustEnrolTwoFactor?: boolean;
}

/** The workspace a request runs in, selected by its host (src/http/tenancy.ts). */
export interface Workspace {
  readonly id: string;
  readonly domain: string;
}
