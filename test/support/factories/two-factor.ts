import { as, ok, type TestUser, type TestWorkspace } from '../harness.js';
import { currentCode, insertOneTimeToken, newToken, ONE_TIME_TOKEN_PREFIX, secondFactorChallenge } from '../src.js';
import type { HasApp } from './people.js';

type WithCall = HasApp & Parameters<typeof as>[0];

const accountOf = async (h: HasApp, user: TestUser): Promise<string> =>
  (await h.app.db.selectFrom('users').select('account_id').where('id', '=', user.userId).executeTakeFirstOrThrow()).account_id;

/**
 * Two-factor authentication turned on for the user's account through the API (enrol, confirm with
 * the code of the step before, so the current and next codes are still free): the secret and the
 * recovery codes.
 */
export async function twoFactor(h: WithCall, ws: TestWorkspace, user: TestUser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const api = as(h, ws, user);
  const { secret } = await ok(api.post('/api/auth/two-factor'));
  const { recoveryCodes } = await ok(api.post('/api/auth/two-factor/confirm', { code: currentCode(secret, Date.now() - 30_000) }));
  return { secret, recoveryCodes };
}

/** Forgets the 2FA of the users' accounts and every pending enrolment (the state the API cannot undo without a code). */
export async function noTwoFactor(h: HasApp, ...users: TestUser[]): Promise<void> {
  await h.app.db.deleteFrom('two_factor_secrets').where('confirmed_at', 'is', null).execute();
  for (const user of users) {
    const accountId = await accountOf(h, user);
    await h.app.db.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
    await h.app.db.deleteFrom('two_factor_secrets').where('account_id', '=', accountId).execute();
  }
}

/** The challenge a password or link sign-in of this user (2FA on) answers at the workspace. */
export async function signInChallenge(h: HasApp, ws: TestWorkspace, user: TestUser): Promise<string> {
  const found = await secondFactorChallenge(h.app.db, await accountOf(h, user), ws.organizationId, 'password');
  if (!found) throw new Error('the user has no two-factor authentication on');
  return found.challenge;
}

/** The token of a person's sign-in link (as POST /auth/email-link mails one), valid 15 minutes. */
export async function signInLink(h: HasApp, ws: TestWorkspace, user: TestUser): Promise<string> {
  const token = newToken(ONE_TIME_TOKEN_PREFIX);
  const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();
  await insertOneTimeToken(h.app.db, { organizationId: ws.organizationId, userId: user.userId, token, expiresAt, purpose: 'sign-in' });
  return token;
}
