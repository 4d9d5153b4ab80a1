import { afterAll, beforeAll, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { BASE_DOMAIN, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { startProvider, type TestProvider } from '../support/oidc-provider.js';
import {
  EXPIRED_ROWS_BATCH,
  hashToken,
  insertOidcState,
  insertOneTimeToken,
  insertSession,
  newToken,
  ONE_TIME_TOKEN_PREFIX,
  pruneExpiredSignInRows,
  SESSION_TOKEN_PREFIX,
} from '../support/src.js';

const PUBLIC_URL = `http://${BASE_DOMAIN}:3000`;
const CLIENT = { id: 'timetrack', secret: 'timetrack-client-secret-for-tests', redirectUri: `${PUBLIC_URL}/api/auth/oidc/callback` };
const STARTS_PER_MINUTE = 3;
const MINUTE = 60_000;

/** An instant this many milliseconds from now (negative: past). */
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

let provider: TestProvider;

describeEachStore(
  'Expired sign-in rows are pruned, and single sign-on starts are bounded per address (docs/rules.md §7 Expired rows, §8 Single sign-on)',
  (h: Harness) => {
    beforeAll(async () => {
      provider = await startProvider([CLIENT]);
      h.config.oidc = { issuer: provider.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, allowedDomains: [], displayName: 'Test IdP' };
    });
    afterAll(async () => {
      await provider?.close();
    });

    const accountOf = async (user: TestUser) =>
      (await h.app.db.selectFrom('users').select('account_id').where('id', '=', user.userId).executeTakeFirstOrThrow()).account_id;

    async function oidcState(ws: TestWorkspace, expiresAt: string): Promise<string> {
      const stateHash = hashToken(newToken(''));
      await insertOidcState(h.app.db, {
        stateHash,
        organizationId: ws.organizationId,
        sealedVerifier: 'sealed',
        nonce: 'nonce',
        browserHash: hashToken(newToken('')),
        expiresAt,
        now: fromNow(-20 * MINUTE),
      });
      return stateHash;
    }

    async function oneTimeToken(ws: TestWorkspace, user: TestUser, expiresAt: string): Promise<string> {
      const token = newToken(ONE_TIME_TOKEN_PREFIX);
      await insertOneTimeToken(h.app.db, { organizationId: ws.organizationId, userId: user.userId, token, expiresAt, purpose: 'sign-in' });
      return hashToken(token);
    }

    async function challenge(ws: TestWorkspace, user: TestUser, expiresAt: string): Promise<string> {
      const tokenHash = hashToken(await make.signInChallenge(h, ws, user));
      await h.app.db.updateTable('sign_in_challenges').set({ expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
      return tokenHash;
    }

    async function session(user: TestUser, expiresAt: string): Promise<string> {
      const token = newToken(SESSION_TOKEN_PREFIX);
      await insertSession(h.app.db, { accountId: await accountOf(user), token, expiresAt, method: 'password' });
      return hashToken(token);
    }

    const oidcStatesOf = async (ws: TestWorkspace) =>
      (await h.app.db.selectFrom('oidc_states').select('state_hash').where('organization_id', '=', ws.organizationId).execute()).map((row) => row.state_hash);
    const tokensOf = async (ws: TestWorkspace) =>
      (await h.app.db.selectFrom('one_time_tokens').select('token_hash').where('organization_id', '=', ws.organizationId).execute()).map((row) => row.token_hash);
    const challengesOf = async (ws: TestWorkspace) =>
      (await h.app.db.selectFrom('sign_in_challenges').select('token_hash').where('organization_id', '=', ws.organizationId).execute()).map((row) => row.token_hash);
    const sessionsOf = async (user: TestUser) =>
      (await h.app.db.selectFrom('sessions').select('token_hash').where('account_id', '=', await accountOf(user)).execute()).map((row) => row.token_hash);

    it('the server\'s pass deletes, across workspaces, the attempts, challenges and sessions past their end, and keeps the live ones', async () => {
      const workspaces = [await h.workspace(), await h.workspace()];
      const users: TestUser[] = [];
      const kept: string[] = [];
      const pruned: string[] = [];
      for (const ws of workspaces) {
        const user = await h.user(ws);
        users.push(user);
        await make.twoFactor(h, ws, user);
        pruned.push(await oidcState(ws, fromNow(-46 * MINUTE)), await oidcState(ws, fromNow(-1_000)));
        kept.push(await oidcState(ws, fromNow(10 * MINUTE)));
        pruned.push(await challenge(ws, user, fromNow(-MINUTE)));
        kept.push(await challenge(ws, user, fromNow(5 * MINUTE)));
        pruned.push(await session(user, fromNow(-MINUTE)));
        kept.push(await session(user, fromNow(12 * 60 * MINUTE)));
      }
      await pruneExpiredSignInRows(h.app.db);
      const left: string[] = [];
      for (const ws of workspaces) left.push(...(await oidcStatesOf(ws)), ...(await challengesOf(ws)));
      for (const user of users) left.push(...(await sessionsOf(user)));
      expect(left).toEqual(expect.arrayContaining(kept));
      for (const hash of pruned) expect(left).not.toContain(hash);
    });

    it('one-time tokens, used or not, go at their end: the link quota counts only links that still work', async () => {
      const ws = await h.workspace();
      const user = await h.user(ws);
      const live = await oneTimeToken(ws, user, fromNow(10 * MINUTE));
      const usedLive = await oneTimeToken(ws, user, fromNow(10 * MINUTE));
      await h.app.db.updateTable('one_time_tokens').set({ used_at: fromNow(-MINUTE) }).where('token_hash', '=', usedLive).execute();
      const endedRecently = await oneTimeToken(ws, user, fromNow(-MINUTE));
      const usedLongAgo = await oneTimeToken(ws, user, fromNow(-2 * 60 * MINUTE));
      await h.app.db.updateTable('one_time_tokens').set({ used_at: fromNow(-2 * 60 * MINUTE - 1_000) }).where('token_hash', '=', usedLongAgo).execute();
      await pruneExpiredSignInRows(h.app.db);
      const left = await tokensOf(ws);
      expect(left.sort()).toEqual([live, usedLive].sort());
      expect(left).not.toContain(endedRecently);
    });

    it('a pass deletes in batches until nothing expired is left', async () => {
      const ws = await h.workspace();
      const count = EXPIRED_ROWS_BATCH * 2 + 7;
      const rows = Array.from({ length: count }, (_, i) => ({
        state_hash: hashToken(`${ws.domain}-${i}`),
        organization_id: ws.organizationId,
        code_verifier: 'sealed',
        nonce: 'nonce',
        browser_hash: null,
        expires_at: fromNow(-MINUTE),
        used_at: null,
        created_at: fromNow(-11 * MINUTE),
      }));
      for (let i = 0; i < rows.length; i += 200) await h.app.db.insertInto('oidc_states').values(rows.slice(i, i + 200)).execute();
      const live = await oidcState(ws, fromNow(10 * MINUTE));
      const { oidcStates } = await pruneExpiredSignInRows(h.app.db);
      expect(oidcStates).toBeGreaterThanOrEqual(count);
      expect(await oidcStatesOf(ws)).toEqual([live]);
    });

    it(`single sign-on starts beyond ${STARTS_PER_MINUTE} a minute from one address are 429 with Retry-After, and store no attempt`, async () => {
      const ws = await h.workspace();
      for (let i = 0; i < STARTS_PER_MINUTE; i++) expect((await h.call('GET', '/api/auth/oidc/start', { host: ws.host })).status).toBe(302);
      const refused = await h.call('GET', '/api/auth/oidc/start', { host: ws.host });
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body.code).toBe('rate-limited');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers['set-cookie']).toBeUndefined();
      expect(await oidcStatesOf(ws)).toHaveLength(STARTS_PER_MINUTE);
    });
  },
  { publicUrl: PUBLIC_URL, oidcStartsPerAddressPerMinute: STARTS_PER_MINUTE },
);
