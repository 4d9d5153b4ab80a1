import type { Db } from '../../../../db/database.js';

/** One single sign-on attempt: found by the digest of its state, used once, by the browser whose cookie has `browserHash` as digest. */
export async function insertOidcState(
  db: Db,
  state: { stateHash: string; organizationId: string; sealedVerifier: string; nonce: string; browserHash: string; expiresAt: string; now: string },
): Promise<void> {
  await db
    .insertInto('oidc_states')
    .values({
      state_hash: state.stateHash,
      organization_id: state.organizationId,
      code_verifier: state.sealedVerifier,
      nonce: state.nonce,
      browser_hash: state.browserHash,
      expires_at: state.expiresAt,
      used_at: null,
      created_at: state.now,
    })
    .execute();
}

/** The domain of the workspace an unused, unexpired attempt began at (the callback at the bare host forwards there). */
export async function domainOfOidcState(db: Db, stateHash: string, now: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('oidc_states')
    .innerJoin('organizations', 'organizations.id', 'oidc_states.organization_id')
    .select('organizations.domain')
    .where('oidc_states.state_hash', '=', stateHash)
    .where('oidc_states.used_at', 'is', null)
    .where('oidc_states.expires_at', '>', now)
    .executeTakeFirst();
  return row?.domain;
}

/**
 * Uses an attempt of this workspace once, from the browser that began it (a conditional UPDATE: a
 * replayed state, or one brought by another browser, finds nothing).
 */
export async function useOidcState(
  db: Db,
  attempt: { organizationId: string; stateHash: string; browserHash: string },
  now: string,
): Promise<{ sealedVerifier: string; nonce: string } | undefined> {
  const { organizationId, stateHash, browserHash } = attempt;
  const result = await db
    .updateTable('oidc_states')
    .set({ used_at: now })
    .where('state_hash', '=', stateHash)
    .where('organization_id', '=', organizationId)
    .where('browser_hash', '=', browserHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const row = await db.selectFrom('oidc_states').select(['code_verifier', 'nonce']).where('state_hash', '=', stateHash).executeTakeFirstOrThrow();
  return { sealedVerifier: row.code_verifier, nonce: row.nonce };
}
