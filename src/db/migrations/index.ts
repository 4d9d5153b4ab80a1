import type { MigrationModule } from './context.js';
import * as foundation from './0001_foundation.js';
import * as trackingAndPeople from './0002_tracking_and_people.js';
import * as billingAndGeofences from './0003_billing_and_geofences.js';
import * as requestsAndTimesheets from './0004_requests_and_timesheets.js';
import * as activityListing from './0005_activity_listing.js';
import * as retiredDomains from './0006_retired_domains.js';
import * as outboxExpiry from './0007_outbox_expiry.js';
import * as signIn from './0008_sign_in.js';
import * as twoFactorAndSingleSignOn from './0009_two_factor_and_single_sign_on.js';
import * as changeFeed from './0010_change_feed.js';
import * as webhooks from './0011_webhooks.js';
import * as webhookPendingHeads from './0012_webhook_pending_heads.js';
import * as webhookSeqAtCommit from './0013_webhook_seq_at_commit.js';
import * as activityOrderInIndexes from './0014_activity_order_in_indexes.js';
import * as webhooksFollowTheFeed from './0015_webhooks_follow_the_feed.js';

export type { MigrationContext, MigrationModule } from './context.js';

/** Every migration, in the order it runs. Add new ones at the end; never edit one that has shipped. */
export const migrations: Record<string, MigrationModule> = {
  '0001_foundation': foundation,
  '0002_tracking_and_people': trackingAndPeople,
  '0003_billing_and_geofences': billingAndGeofences,
  '0004_requests_and_timesheets': requestsAndTimesheets,
  '0005_activity_listing': activityListing,
  '0006_retired_domains': retiredDomains,
  '0007_outbox_expiry': outboxExpiry,
  '0008_sign_in': signIn,
  '0009_two_factor_and_single_sign_on': twoFactorAndSingleSignOn,
  '0010_change_feed': changeFeed,
  '0011_webhooks': webhooks,
  '0012_webhook_pending_heads': webhookPendingHeads,
  '0013_webhook_seq_at_commit': webhookSeqAtCommit,
  '0014_activity_order_in_indexes': activityOrderInIndexes,
  '0015_webhooks_follow_the_feed': webhooksFollowTheFeed,
};
