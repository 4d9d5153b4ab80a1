import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * outbox.expires_at: a message whose body carries a secret (the one-time support sign-in link) is
 * kept only for the secret's life. At expires_at, or when the secret is used, its body is replaced
 * by a note and expires_at cleared (docs/rules.md §6 Mail); outbox_expiring finds the due ones.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('outbox').addColumn('expires_at', t.timestamp).execute();
  await db.schema.createIndex('outbox_expiring').on('outbox').column('expires_at').execute();
}
