import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import {
  BillingTransaction,
  CheckoutBody,
  CheckoutLink,
  ReceiptBody,
  ReceiptResult,
  Subscription,
  SubscriptionParams,
  SubscriptionUpdate,
} from './schemas.js';
import { billingHistory, changeSubscription, checkoutLink, storeReceipt, workspaceSubscriptions } from './service.js';

const TAG = 'Billing';
const FREE =
  'The service is free for unlimited users: no live billing flow runs. Administrators only.';

export const billingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/subscriptions',
    {
      config: { permission: 'billing:manage' },
      schema: operation({
        operationId: 'listSubscriptions',
        tag: TAG,
        summary: 'The workspace\'s subscriptions',
        description: `${FREE} Reads the stored subscription records (none by default), oldest stored first.`,
        response: Type.Array(Type.Ref(Subscription)),
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => workspaceSubscriptions(app.db, request.actor),
  );

  app.put(
    '/subscriptions/:subscriptionId',
    {
      config: { permission: 'billing:manage' },
      schema: operation({
        operationId: 'updateSubscription',
        tag: TAG,
        summary: 'Change the quantity (seats) of a subscription',
        description: `${FREE} subscriptionId is the provider's identifier of a stored subscription of this workspace (404 otherwise). quantity is a whole number from 1 to 1,000,000.`,
        params: SubscriptionParams,
        body: SubscriptionUpdate,
        response: Empty,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => {
      await changeSubscription(app.db, request.actor, request.params.subscriptionId, request.body);
      return {};
    },
  );

  app.post(
    '/checkout',
    {
      config: { permission: 'billing:manage' },
      schema: operation({
        operationId: 'createCheckout',
        tag: TAG,
        summary: 'A checkout link for a product and quantity',
        description:
          `${FREE} product (1–2,147,483,647) and quantity (1–1,000,000) are whole numbers; strings such as "1" are 422. ` +
          'As the service is free, the configured provider is the service\'s own checkout page: the answer is ' +
          '`{PUBLIC_URL}/billing/checkout?workspace={domain}&product={product}&quantity={quantity}`, built from ' +
          'the configuration, never from the request\'s Host or X-Forwarded-* headers. Nothing is stored.',
        body: CheckoutBody,
        response: Type.Ref(CheckoutLink),
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => checkoutLink(app.config, request.workspace, request.body),
  );

  app.get(
    '/billing-history',
    {
      config: { permission: 'billing:manage' },
      schema: operation({
        operationId: 'listBillingHistory',
        tag: TAG,
        summary: 'The workspace\'s billing transactions',
        description: `${FREE} Reads the stored transaction records (none by default), oldest stored first.`,
        response: Type.Array(Type.Ref(BillingTransaction)),
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => billingHistory(app.db, request.actor),
  );

  app.post(
    '/receipt',
    {
      config: { permission: 'billing:manage' },
      schema: operation({
        operationId: 'postReceipt',
        tag: TAG,
        summary: 'Store an app-store receipt',
        description:
          `${FREE} receiptBase64 must be non-empty canonical base64 (RFC 4648 §4: standard alphabet, \`=\` padding, ` +
          'no whitespace or line breaks, unused bits zero), at most 524,288 characters; anything else is 422. ' +
          'The receipt is stored with the workspace and the caller; the answer is `{"ok": true}`.',
        body: ReceiptBody,
        response: ReceiptResult,
        errors: {
          403: 'Not an administrator',
          422: 'Also: a `receiptBase64` that is not canonical base64 (whose unused bits are not zero: the pattern says so too)',
        },
      }),
    },
    async (request) => {
      await storeReceipt(app.db, request.actor, request.body);
      return { ok: true };
    },
  );
};
