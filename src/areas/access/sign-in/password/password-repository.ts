import type { Db } from '../../../../db/database.js';

export async function accountPasswordHash(db: Db, accountId: string): Promise<string | null> {
  const row = await db.selectFrom('accounts').select('password_hash').where('id', '=', accountId).executeTakeFirst();
  return row?.password_hash ?? null;
}

export async function setAccountPassword(db: Db, accountId: string, passwordHash: string, at: string): Promise<void> {
  await db.updateTable('accounts').set({ password_hash: passwordHash, password_changed_at: at }).where('id', '=', accountId).execute();
}
