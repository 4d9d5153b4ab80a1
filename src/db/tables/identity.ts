import type { DbBool } from './types.js';

/** A person, across workspaces, keyed by lowercase email. */
export interface AccountsTable {
  id: string;
  email: string;
  created_at: string;
  /** Argon2id digest of the account's password (PHC string), or null: the account signs in by link only. */
  password_hash: string | null;
  password_changed_at: string | null;
}

/** An account's membership in one workspace. */
export interface UsersTable {
  id: string;
  organization_id: string;
  account_id: string;
  role: string;
  archived: DbBool;
  name: string | null;
  avatar: string | null;
  phone: string | null;
  title: string | null;
  created_at: string;
  /** The first sign-in of the user in the workspace; null while invited (docs/rules.md §6 Users). */
  joined_at: string | null;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  user_id: string;
  name: string;
  /** The first characters of the key, to tell keys apart in a list. */
  prefix: string;
  /** SHA-256 of the whole key, hex; the key itself is never stored. */
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
}

/** Session access tokens: belong to an account, or act as one user of one workspace when user_id is set. */
export interface SessionsTable {
  id: string;
  account_id: string;
  token_hash: string;
  organization_id: string | null;
  user_id: string | null;
  expires_at: string;
  created_at: string;
  /** How the session began: support, link, invitation, password-reset, password (SignInMethod). */
  method: string;
  /** The User-Agent of the request that began it, cut to 300 characters. */
  user_agent: string | null;
  /** Kept to the minute; null until first used. The idle timeout counts from here (or from created_at). */
  last_used_at: string | null;
}
