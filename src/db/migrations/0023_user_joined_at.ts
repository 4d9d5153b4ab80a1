import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * When each user first signed in to their workspace (docs/rules.md §6 Users): null while invited.
 * Who of the existing users ever signed in cannot be known (sessions belong to accounts, not to
 * workspaces, and expired ones are pruned), so every existing user is taken as joined at their
 * creation: none of them shows as invited.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('users').addColumn('joined_at', t.timestamp).execute();
  await sql`update users set joined_at = created_at`.execute(db);
}
