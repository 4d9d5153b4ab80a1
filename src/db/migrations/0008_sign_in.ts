import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * Sign-in for people (docs/rules.md §7): an account's password digest (Argon2id, PHC string); for
 * each session how it began (`method`), the browser that holds it and when it was last used (the
 * idle timeout counts from there); for each one-time token what it is for (`purpose`: the support
 * sign-in, a person's sign-in link, a password reset).
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('accounts').addColumn('password_hash', t.text).execute();
  await db.schema.alterTable('accounts').addColumn('password_changed_at', t.timestamp).execute();
  await db.schema.alterTable('sessions').addColumn('method', t.text, (c) => c.notNull().defaultTo('support')).execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', t.text).execute();
  await db.schema.alterTable('sessions').addColumn('last_used_at', t.timestamp).execute();
  await db.schema.alterTable('one_time_tokens').addColumn('purpose', t.text, (c) => c.notNull().defaultTo('support')).execute();
}
