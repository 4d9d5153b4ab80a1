import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * retired_domains: the domains a deleted workspace held (its current one and every former one),
 * kept out of reach of other workspaces until reserved_until (docs/rules.md §2), so that old
 * invitation links and bookmarks never lead into someone else's workspace. Not tied to any
 * organization: the workspace is gone. `timetrack domain release` removes one on purpose.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('retired_domains')
    .addColumn('domain', t.text, (c) => c.primaryKey())
    .addColumn('retired_at', t.timestamp, (c) => c.notNull())
    .addColumn('reserved_until', t.timestamp, (c) => c.notNull())
    .execute();
}
