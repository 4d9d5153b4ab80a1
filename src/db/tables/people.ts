export interface UserPreferencesTable {
  user_id: string;
  /** The whole preferences document as JSON, deep-merged on every PUT. */
  document: string;
  updated_at: string;
}

export interface ReportsTable {
  id: string;
  organization_id: string;
  user_id: string;
  name: string;
  /** Every other field of the saved report, as JSON. */
  definition: string;
  created_at: string;
  updated_at: string;
}

/** Outgoing mail, written in the same transaction as its cause and delivered later. */
export interface OutboxTable {
  id: string;
  organization_id: string | null;
  to_address: string;
  kind: string;
  subject: string;
  body: string;
  created_at: string;
  sent_at: string | null;
  attempts: number;
  last_error: string | null;
  /** A delivery attempt holds the message until then, so two senders never send it twice. */
  locked_until: string | null;
  /** The body carries a secret valid until then: it is replaced by a note at that time (migration 0007). */
  expires_at: string | null;
}
