import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { BillingTransaction, Subscription } from './schemas.js';

/** A workspace's subscriptions, oldest stored first. */
export async function listSubscriptions(db: Db, organizationId: string): Promise<Subscription[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const subscription: Subscription = { id: row.id, status: row.status };
    if (row.plan !== null) subscription.plan = row.plan;
    if (row.next_bill_date !== null) subscription.nextBillDate = row.next_bill_date;
    if (row.quantity !== null) subscription.quantity = Number(row.quantity);
    return subscription;
  });
}

/** Sets the quantity of one of the workspace's subscriptions; false when there is no such subscription. */
export async function updateSubscriptionQuantity(
  db: Db,
  organizationId: string,
  subscriptionId: string,
  quantity: number,
): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ quantity, updated_at: nowIso() })
    .where('organization_id', '=', organizationId)
    .where('id', '=', subscriptionId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Stores a subscription as the payment provider reports it (operators, integrations and tests). */
export async function insertSubscription(db: Db, organizationId: string, subscription: Subscription): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('subscriptions')
    .values({
      organization_id: organizationId,
      id: subscription.id,
      status: subscription.status,
      plan: subscription.plan ?? null,
      next_bill_date: subscription.nextBillDate ?? null,
      quantity: subscription.quantity ?? null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** A workspace's billing history, oldest stored first. */
export async function listBillingTransactions(db: Db, organizationId: string): Promise<BillingTransaction[]> {
  const rows = await db
    .selectFrom('billing_transactions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const transaction: BillingTransaction = {
      id: row.id,
      amount: Number(row.amount),
      currency: row.currency,
      status: row.status,
    };
    if (row.paid_at !== null) transaction.paidAt = row.paid_at;
    return transaction;
  });
}

/** Stores a transaction as the payment provider reports it (operators, integrations and tests). */
export async function insertBillingTransaction(
  db: Db,
  organizationId: string,
  transaction: BillingTransaction,
): Promise<void> {
  await db
    .insertInto('billing_transactions')
    .values({
      organization_id: organizationId,
      id: transaction.id,
      amount: transaction.amount,
      currency: transaction.currency,
      status: transaction.status,
      paid_at: transaction.paidAt ?? null,
      created_at: nowIso(),
    })
    .execute();
}

export async function insertReceipt(
  db: Db,
  receipt: { organizationId: string; userId: string; receipt: string },
): Promise<string> {
  const id = newId();
  await db
    .insertInto('receipts')
    .values({
      id,
      organization_id: receipt.organizationId,
      user_id: receipt.userId,
      receipt: receipt.receipt,
      created_at: nowIso(),
    })
    .execute();
  return id;
}
