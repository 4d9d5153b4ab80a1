import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import type { MigrationContext } from './context.js';

/**
 * Two-factor codes and single sign-on (docs/rules.md §8 Two-factor codes, Single sign-on):
 * - two_factor_secrets: an account's TOTP secret, encrypted (AES-256-GCM under SECRET_KEY), pending
 *   until confirmed; the last time step used (a code works once) and the count of failed codes.
 * - recovery_codes: ten single-use codes per confirmed enrolment, as SHA-256 digests.
 * - sign_in_challenges: the opaque, short-lived token a sign-in answers instead of a session while the
 *   second factor is outstanding, stored by digest.
 * - sign_in_settings: per workspace, whether 2FA is required and the domains invited by single sign-on.
 * - oidc_states: one row per single sign-on attempt, found by the digest of its `state`, used once.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('two_factor_secrets')
    .addColumn('account_id', t.id, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('secret', t.text, (c) => c.notNull())
    .addColumn('confirmed_at', t.timestamp)
    .addColumn('last_step', t.bigint)
    .addColumn('failed_attempts', t.integer, (c) => c.notNull())
    .addColumn('blocked_until', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('account_id', t.id, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('code_hash', t.text, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recovery_codes_account').on('recovery_codes').columns(['account_id', 'code_hash']).execute();
  await db.schema
    .createTable('sign_in_challenges')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('token_hash', t.text, (c) => c.notNull().unique())
    .addColumn('account_id', t.id, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('method', t.text, (c) => c.notNull())
    .addColumn('attempts', t.integer, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sign_in_settings')
    .addColumn('organization_id', t.id, (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('two_factor_required', t.boolean, (c) => c.notNull())
    .addColumn('invitation_domains', t.json, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oidc_states')
    .addColumn('state_hash', t.text, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('code_verifier', t.text, (c) => c.notNull())
    .addColumn('nonce', t.text, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
}
