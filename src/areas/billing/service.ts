import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Actor, Workspace } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { insertReceipt, listBillingTransactions, listSubscriptions, updateSubscriptionQuantity } from './repository.js';
import { assertReceipt, checkoutUrl } from './rules.js';
import type { BillingTransaction, CheckoutBody, CheckoutLink, ReceiptBody, Subscription, SubscriptionUpdate } from './schemas.js';

export async function workspaceSubscriptions(db: Db, actor: Actor): Promise<Subscription[]> {
  return listSubscriptions(db, actor.organizationId);
}

/** Sets the seats of one of the workspace's stored subscriptions (404 when there is no such subscription). */
export async function changeSubscription(db: Db, actor: Actor, subscriptionId: string, body: SubscriptionUpdate): Promise<void> {
  if (!(await updateSubscriptionQuantity(db, actor.organizationId, subscriptionId, body.quantity))) throw notFound('subscription');
}

/** The link to the service's own checkout page: nothing is stored. */
export function checkoutLink(config: Config, workspace: Workspace, body: CheckoutBody): CheckoutLink {
  return { url: checkoutUrl(config, workspace.domain, body.product, body.quantity) };
}

export async function billingHistory(db: Db, actor: Actor): Promise<BillingTransaction[]> {
  return listBillingTransactions(db, actor.organizationId);
}

/** Stores an app-store receipt with the workspace and the caller (422 unless canonical base64). */
export async function storeReceipt(db: Db, actor: Actor, body: ReceiptBody): Promise<void> {
  assertReceipt(body.receiptBase64);
  await insertReceipt(db, { organizationId: actor.organizationId, userId: actor.userId, receipt: body.receiptBase64 });
}
