import { fromDbBool } from '../../db/values.js';
import type { Role, TokenKind } from '../../domain/actor.js';

/** The user a bearer token stands for in one workspace, and what kind of token it is. */
export interface TokenHolder {
  userId: string;
  accountId: string;
  email: string;
  role: Role;
  archived: boolean;
  tokenKind: TokenKind;
  /** A session's end (ISO instant): whoever keeps the holder must not keep it longer. API keys do not expire. */
  expiresAt?: string;
  /** A person's session in a workspace that requires 2FA, of an account without it: they may only enrol. */
  mustEnrolTwoFactor?: boolean;
}

interface TokenHolderRow {
  user_id: string;
  account_id: string;
  email: string;
  role: string;
  archived: boolean | number;
}

export const userColumns = [
  'users.id as user_id',
  'users.account_id',
  'accounts.email',
  'users.role',
  'users.archived',
] as const;

export const holderOf = (row: TokenHolderRow, tokenKind: TokenKind): TokenHolder => ({
  userId: row.user_id,
  accountId: row.account_id,
  email: row.email,
  role: row.role as Role,
  archived: fromDbBool(row.archived),
  tokenKind,
});
