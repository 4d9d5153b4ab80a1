import type { ColumnType } from 'kysely';
import type { DbBool } from './types.js';

/** bigint columns: read back as numbers (database.ts sets the int8 parser). */
type Counter = ColumnType<number, number | undefined, number>;
/** A delivery's number: on PostgreSQL written null and given at COMMIT (migration 0013), so never null once visible to others. */
type DeliverySeq = ColumnType<number, number | null, number>;

export interface WebhooksTable {
  id: string;
  organization_id: string;
  url: string;
  /** JSON array of event types, or ["*"]. */
  events: string;
  enabled: DbBool;
  description: string | null;
  /** The signing secret, sealed with the server secret (lib/sealing.ts). */
  secret_sealed: string;
  /** After a rotation: the former secret, still signing until previous_secret_expires_at. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  /** Why the service disabled the webhook (its retry window ran out); null when an administrator set `enabled`. */
  disabled_reason: string | null;
  /** The seq of the webhook's last delivery; taking the next one locks the row, so seq follows commit order (on PostgreSQL taken at COMMIT). */
  next_seq: Counter;
  /** The position of the workspace's change feed through which this webhook's deliveries are queued. */
  feed_position: Counter;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  organization_id: string;
  webhook_id: string;
  seq: DeliverySeq;
  event_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  first_attempt_at: string | null;
  next_attempt_at: string;
  /** A worker holds the delivery until then; after it (a killed worker), another takes it again. */
  locked_until: string | null;
  /** The holder's claim: only it records the outcome. */
  claim: string | null;
  finished_at: string | null;
  created_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: string;
  /** The receiver's HTTP status, null when no answer came (refused address, connection error, timeout). */
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}
