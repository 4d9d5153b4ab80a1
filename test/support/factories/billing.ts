import type { TestWorkspace } from '../harness.js';
import { insertBillingTransaction, insertSubscription } from '../src.js';
import type { HasApp } from './people.js';

/* Billing records come from the payment provider, not the API: stored with the data layer's functions for them. */

/** A subscription of the workspace, as the provider reported it. */
export const subscription = (h: HasApp, ws: Pick<TestWorkspace, 'organizationId'>, fields: Parameters<typeof insertSubscription>[2]) =>
  insertSubscription(h.app.db, ws.organizationId, fields);

/** A billing transaction of the workspace, as the provider reported it. */
export const billingTransaction = (
  h: HasApp,
  ws: Pick<TestWorkspace, 'organizationId'>,
  fields: Parameters<typeof insertBillingTransaction>[2],
) => insertBillingTransaction(h.app.db, ws.organizationId, fields);
