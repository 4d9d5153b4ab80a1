import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * PostgreSQL: a delivery takes its webhook's next number at COMMIT, by a deferred constraint trigger
 * (as change_events takes its position, 0010), instead of when it is written. The webhook's row is
 * then locked only while its writer commits, not from the write to the commit: a workspace's writes
 * that a webhook takes no longer wait for each other's whole transactions. Numbers still follow
 * commit order, since a later number is given only once the earlier one's transaction has ended.
 * SQLite (one writer) keeps numbering at the write.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter table webhook_deliveries alter column seq drop not null`.execute(db);
  await sql`
    create function webhook_deliveries_take_seq() returns trigger language plpgsql as $$
    declare
      taken bigint;
    begin
      -- A delivery whose webhook was deleted later in the same transaction is gone: nothing to number.
      if not exists (select 1 from webhook_deliveries where id = new.id) then
        return null;
      end if;
      update webhooks set next_seq = next_seq + 1 where id = new.webhook_id returning next_seq into taken;
      update webhook_deliveries set seq = taken where id = new.id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create constraint trigger webhook_deliveries_seq after insert on webhook_deliveries
    deferrable initially deferred for each row execute function webhook_deliveries_take_seq()`.execute(db);
}
