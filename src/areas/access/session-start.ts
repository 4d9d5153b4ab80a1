import type { Config } from '../../config.js';
import type { Trx } from '../../db/database.js';
import { newToken, SESSION_TOKEN_PREFIX } from '../../lib/tokens.js';
import { insertSession } from './repository.js';

export interface IssuedSession {
  token: string;
  expiresAt: string;
}

/** A new account session (docs/rules.md §2 Tokens), valid config.sessionTtlSeconds. */
export async function startSession(
  trx: Trx,
  config: Config,
  start: { accountId: string; organizationId: string; now: string },
): Promise<IssuedSession> {
  const token = newToken(SESSION_TOKEN_PREFIX);
  const expiresAt = new Date(Date.parse(start.now) + config.sessionTtlSeconds * 1000).toISOString();
  await insertSession(trx, { accountId: start.accountId, token, expiresAt });
  return { token, expiresAt };
}
