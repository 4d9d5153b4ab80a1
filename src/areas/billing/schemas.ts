import { Type, type Static } from '@sinclair/typebox';
import { Id, Timestamp } from '../../route-kit/schemas.js';

/** Path ids are opaque: any string, so a malformed or overlong id is 404 (not found), never 422. */

/** The largest subscription quantity (seats) and product number accepted. */
export const MAX_QUANTITY = 1_000_000;
export const MAX_PRODUCT = 2_147_483_647;
/**
 * The longest receipt accepted, in base64 characters (512 KiB of text, 384 KiB decoded). App-store
 * receipts are a few kilobytes; the 1 MiB body limit applies on top of this.
 */
export const MAX_RECEIPT_CHARS = 524_288;

export const Subscription = Type.Object(
  {
    id: Type.String({ description: 'The payment provider\'s identifier' }),
    status: Type.String(),
    plan: Type.Optional(Type.String()),
    nextBillDate: Type.Optional(Type.String({ format: 'date' })),
    quantity: Type.Optional(Type.Integer()),
  },
  { $id: 'Subscription', title: 'Subscription' },
);
export type Subscription = Static<typeof Subscription>;

export const BillingTransaction = Type.Object(
  {
    id: Type.String({ description: 'The payment provider\'s identifier' }),
    amount: Type.Number(),
    currency: Type.String(),
    status: Type.String(),
    paidAt: Type.Optional(Timestamp()),
  },
  { $id: 'BillingTransaction', title: 'BillingTransaction' },
);
export type BillingTransaction = Static<typeof BillingTransaction>;

export const CheckoutLink = Type.Object(
  { url: Type.String({ format: 'uri' }) },
  { $id: 'CheckoutLink', title: 'CheckoutLink' },
);
export type CheckoutLink = Static<typeof CheckoutLink>;

export const SubscriptionParams = Type.Object({ subscriptionId: Id });

export const SubscriptionUpdate = Type.Object({
  quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY, description: 'Seats; a whole number ≥ 1' }),
});
export type SubscriptionUpdate = Static<typeof SubscriptionUpdate>;

export const CheckoutBody = Type.Object({
  product: Type.Integer({ minimum: 1, maximum: MAX_PRODUCT, description: 'Product number; a whole number ≥ 1' }),
  quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY, description: 'Seats; a whole number ≥ 1' }),
});
export type CheckoutBody = Static<typeof CheckoutBody>;

export const ReceiptBody = Type.Object({
  receiptBase64: Type.String({
    minLength: 4,
    maxLength: MAX_RECEIPT_CHARS,
    // Canonical base64 exactly: whole quanta, and the unused bits of a padded last quantum zero.
    pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$',
    description: 'An app-store receipt in canonical base64 (RFC 4648 §4: standard alphabet, padded, no whitespace); not empty',
  }),
});
export type ReceiptBody = Static<typeof ReceiptBody>;

export const ReceiptResult = Type.Object({ ok: Type.Boolean() });
