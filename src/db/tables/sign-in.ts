import type { DbBool } from './types.js';

/** An account's TOTP secret (AES-256-GCM ciphertext), pending until confirmed_at is set. */
export interface TwoFactorSecretsTable {
  account_id: string;
  secret: string;
  confirmed_at: string | null;
  /** The last TOTP time step a code was accepted for: a code of that step or earlier is a replay. */
  last_step: number | string | bigint | null;
  failed_attempts: number;
  blocked_until: string | null;
  created_at: string;
}

/** A single-use recovery code, by its SHA-256 digest. */
export interface RecoveryCodesTable {
  id: string;
  account_id: string;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

/** A sign-in waiting for its second factor, found by the digest of its challenge token. */
export interface SignInChallengesTable {
  id: string;
  token_hash: string;
  account_id: string;
  organization_id: string;
  /** How the sign-in began (sessions.method of the session it becomes). */
  method: string;
  attempts: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A workspace's sign-in settings (a workspace without a row has the defaults). */
export interface SignInSettingsTable {
  organization_id: string;
  two_factor_required: DbBool;
  /** JSON array of lowercase email domains whose verified single sign-on addresses may join as User. */
  invitation_domains: string;
  updated_at: string;
}

/** One single sign-on attempt, found by the digest of its state; code_verifier is encrypted. */
export interface OidcStatesTable {
  state_hash: string;
  organization_id: string;
  code_verifier: string;
  nonce: string;
  /** SHA-256 of the cookie value given to the browser that began it; null for attempts begun before the binding (never matched). */
  browser_hash: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}
