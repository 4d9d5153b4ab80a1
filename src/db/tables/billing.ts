/**
 * Billing records. The service is free, so nothing here is written by a live billing flow: an
 * operator (or a provider integration) stores subscriptions and transactions, the API reads them.
 * Their ids are the provider's (external) identifiers, unique within a workspace.
 */
export interface SubscriptionsTable {
  organization_id: string;
  id: string;
  status: string;
  plan: string | null;
  /** Calendar date, YYYY-MM-DD. */
  next_bill_date: string | null;
  quantity: number | null;
  created_at: string;
  updated_at: string;
}

export interface BillingTransactionsTable {
  organization_id: string;
  id: string;
  amount: number;
  currency: string;
  status: string;
  paid_at: string | null;
  created_at: string;
}

/** App-store receipts posted to POST /receipt, kept as the canonical base64 text they came in. */
export interface ReceiptsTable {
  id: string;
  organization_id: string;
  /** Who posted it; null once that user is deleted (the receipt belongs to the workspace). */
  user_id: string | null;
  receipt: string;
  created_at: string;
}
