import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, StringEnum } from '../../route-kit/schemas.js';

/** An event type a webhook subscribes to (`activity.created`), or `*` for every type. */
export const EVENT_TYPE_PATTERN = '^(\\*|[a-z][a-z_]*\\.[a-z][a-z_]*)$';
export const MAX_EVENT_TYPES = 50;
export const MAX_URL_LENGTH = 2000;

const Url = Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description: 'Where deliveries are POSTed: an absolute https URL to a public address (docs/webhooks.md)',
});
const Events = Type.Array(Type.String({ pattern: EVENT_TYPE_PATTERN, maxLength: 64 }), {
  minItems: 1,
  maxItems: MAX_EVENT_TYPES,
  description: 'Event types of the change feed to deliver (`activity.created`, …), or `["*"]` for every type. Duplicates are kept once.',
});
const Description = Type.String({ maxLength: 1000 });

const webhookFields = {
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean({ description: 'Deliveries are made only while true; the service sets it false when a delivery gives up' }),
  description: Type.Optional(Type.String()),
  disabledReason: Type.Optional(Type.String({ description: 'Present when the service disabled the webhook, saying why' })),
  previousSecretExpiresAt: Type.Optional(
    Type.String({ description: 'After a rotation: until then deliveries are signed with the former secret too' }),
  ),
  createdAt: Type.String(),
  updatedAt: Type.String(),
};

export const Webhook = Type.Object(webhookFields, {
  $id: 'Webhook',
  title: 'Webhook',
  description: 'Optional fields without a value are left out. The secret is shown only by the creation and the rotation.',
});
export type Webhook = Static<typeof Webhook>;

export const WebhookWithSecret = Type.Object(
  { ...webhookFields, secret: Type.String({ description: 'The signing secret (`whsec_…`): shown this once, never again' }) },
  { title: 'WebhookWithSecret', description: 'The webhook with its new signing secret, shown this once' },
);
export type WebhookWithSecret = Static<typeof WebhookWithSecret>;

export const WebhookList = Type.Array(Type.Ref(Webhook), { description: 'The workspace\'s webhooks, in creation order' });

export const WebhookCreate = Type.Object(
  {
    url: Url,
    events: Events,
    enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
    description: Type.Optional(Description),
  },
  { description: 'Unknown fields and server-owned fields (id, secret) are ignored.' },
);
export type WebhookCreate = Static<typeof WebhookCreate>;

export const WebhookUpdate = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    enabled: Type.Optional(Type.Boolean({ description: 'true re-enables a webhook the service disabled (its reason is cleared)' })),
    description: Type.Optional(Nullable(Description)),
  },
  { description: 'Any subset of the fields; the others keep their values. null removes the description.' },
);
export type WebhookUpdate = Static<typeof WebhookUpdate>;

export const WebhookParams = Type.Object({ webhookId: Id });
export const DeliveryParams = Type.Object({ webhookId: Id, deliveryId: Id });

export const Attempt = Type.Object({
  at: Type.String({ description: 'When the attempt started' }),
  statusCode: Nullable(Type.Integer({ description: 'The receiver\'s HTTP status; null when no answer came' })),
  durationMs: Type.Integer(),
  error: Nullable(Type.String({ description: 'Why the attempt failed; null when it succeeded' })),
});

export const WebhookDelivery = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String({ description: 'The event\'s id, sent as Timetrack-Event-Id: a redelivery carries the same one' }),
    eventType: Type.String(),
    status: StringEnum(['pending', 'succeeded', 'failed'] as const, 'pending: waiting for its first or next attempt'),
    createdAt: Type.String(),
    nextAttemptAt: Nullable(Type.String({ description: 'When the next attempt is due (at the earliest); null once finished' })),
    finishedAt: Nullable(Type.String()),
    attempts: Type.Array(Attempt, { description: 'Every attempt so far, oldest first' }),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const DeliveryList = Type.Array(Type.Ref(WebhookDelivery), {
  description: 'The webhook\'s latest 100 deliveries, newest first',
});

/** The envelope of every delivery: what a receiver gets as the POST body. */
export const WebhookEnvelope = Type.Object(
  {
    id: Type.String({ description: 'The event id (also in Timetrack-Event-Id): deduplicate on it' }),
    type: Type.String({ description: 'The event type (also in Timetrack-Event-Type); `ping` for a test ping' }),
    createdAt: Type.String({ description: 'When the change was committed' }),
    workspace: Type.Object({ id: Type.String(), domain: Type.String() }),
    actorId: Nullable(Type.String({ description: 'The user whose request made the change; null for the service itself' })),
    data: Type.Unknown({ description: 'The record after the change (its id for a deletion); for a ping, `{webhookId}`' }),
  },
  { $id: 'WebhookEnvelope', title: 'WebhookEnvelope' },
);
export type WebhookEnvelope = Static<typeof WebhookEnvelope>;
