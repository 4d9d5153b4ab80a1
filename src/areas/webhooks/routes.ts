import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import { WEBHOOKS_PER_WORKSPACE } from './rules.js';
import {
  DeliveryList,
  DeliveryParams,
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookList,
  WebhookParams,
  WebhookUpdate,
  WebhookWithSecret,
} from './schemas.js';
import {
  changeWebhook,
  createWebhook,
  pingWebhook,
  redeliver,
  removeWebhook,
  rotateWebhookSecret,
  webhook,
  webhookDeliveries,
  workspaceWebhooks,
} from './service.js';

const TAG = 'Webhooks';
const ADMINS = 'Administrators only.';
const DELIVERY =
  'Each event a webhook takes is POSTed to its url as JSON, the envelope `{id, type, createdAt, workspace: {id, domain}, actorId, data}` ' +
  '(schema WebhookEnvelope), with the headers `Timetrack-Event-Id`, `Timetrack-Event-Type`, `Timetrack-Delivery-Id` and ' +
  '`Timetrack-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>` (a second `v1` during a rotation\'s grace period). ' +
  'Verify it as in docs/webhooks.md: recompute the HMAC over `t + "." + raw body`, compare it in constant time to any v1, and refuse a `t` ' +
  'more than 5 minutes from your clock (a replay). In Node: ' +
  '`const [t, ...v1] = header.split(",").map((p) => p.split("=")); const mac = crypto.createHmac("sha256", secret).update(`${t[1]}.${rawBody}`).digest("hex"); ' +
  'ok = v1.some(([, sig]) => crypto.timingSafeEqual(Buffer.from(sig, "hex"), Buffer.from(mac, "hex"))) && Math.abs(Date.now() / 1000 - Number(t[1])) <= 300`. ' +
  'At least once, in order per webhook: a delivery is retried on a timeout (WEBHOOK_TIMEOUT_MS, default 5 s), a connection error or a non-2xx answer ' +
  '(redirects are not followed) with exponential backoff and jitter (10 s doubling to 1 h) for 24 hours from its first attempt; then it fails, ' +
  'the webhook is disabled (`enabled` false, `disabledReason` set) and the workspace\'s administrators are mailed. A receiver may see an event ' +
  'twice (after a crash of the delivering instance): deduplicate on the event id.';
const URL_RULES =
  '`url` must be an absolute https URL without a user name or password whose host is not a private, loopback, link-local, shared (CGNAT), ' +
  'metadata or reserved address (nor `localhost`, trailing dot or not): 422 at /body/url. Loopback addresses are accepted only when the service runs ' +
  'with WEBHOOK_ALLOW_PRIVATE=true, and http:// only to them. A host name is resolved again at every delivery and refused the same way, so DNS cannot rebind it to an ' +
  'inner address.';
const EVENTS_RULE =
  '`events` lists event types of the change feed (`activity.created`, `timer.started`, `revenue_rate.updated`, …; docs/rules.md §6 Change feed) ' +
  'or is `["*"]` for every type: any other type is 422 "must be `*` or an event type of the change feed". ' +
  'A webhook takes the events committed after its creation and after `enabled: true` last turned it on (none made while it was off); ' +
  'they are queued from the feed within a second or so, and a change of `events` applies to those queued from then on.';
const WEBHOOK_RULES =
  'A `url` that is not an absolute https URL, carries a user name or password, or names a non-public address; an entry of `events` that is not an event type of the change feed';

export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/webhooks',
    {
      config: { permission: 'webhooks:manage' },
      schema: operation({
        operationId: 'listWebhooks',
        tag: TAG,
        summary: 'The workspace\'s webhooks',
        description: `${ADMINS} In creation order; secrets are never shown.`,
        response: WebhookList,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => workspaceWebhooks(app.db, request.actor),
  );

  app.post(
    '/webhooks',
    {
      config: { permission: 'webhooks:manage' },
      schema: operation({
        operationId: 'createWebhook',
        tag: TAG,
        summary: 'Create a webhook',
        description:
          `${ADMINS} Answers the webhook with its signing secret \`secret\`, shown this once (it is stored sealed and never shown again: ` +
          `rotate it if lost), and queues a test ping (type \`ping\`). ${URL_RULES} ${EVENTS_RULE} \`enabled\` defaults to true. ` +
          `A workspace has at most ${WEBHOOKS_PER_WORKSPACE} webhooks, enabled or not: one more is 409 \`conflict\`, and nothing is stored, until one is deleted. ${DELIVERY}`,
        body: WebhookCreate,
        response: WebhookWithSecret,
        errors: { 403: 'Not an administrator', 409: `The workspace already has ${WEBHOOKS_PER_WORKSPACE} webhooks`, 422: WEBHOOK_RULES },
      }),
    },
    async (request) => createWebhook(app.db, app.config, request.actor, request.body),
  );

  app.get(
    '/webhooks/:webhookId',
    {
      config: { permission: 'webhooks:manage' },
      schema: operation({
        operationId: 'getWebhook',
        tag: TAG,
        summary: 'One webhook',
        description: `${ADMINS} The secret is never shown.`,
        params: WebhookParams,
        response: Type.Ref(Webhook),
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => webhook(app.db, request.actor, request.params.webhookId),
  );

  app.put(
    '/webhooks/:webhookId',
    {
      config: { permission: 'webhooks:manage' },
      schema: operation({
        operationId: 'updateWebhook',
        tag: TAG,
        summary: 'Change a webhook',
        description:
          `${ADMINS} A partial update: any subset of the fields, the others are kept; null removes the description. ` +
          `\`enabled: true\` resumes a webhook the service disabled: its pending deliveries go out again, in order. ${URL_RULES} ${EVENTS_RULE}`,
        params: WebhookParams,
        body: WebhookUpdate,
        response: Type.Ref(Webhook),
        errors: { 403: 'Not an administrator', 422: WEBHOOK_RULES },
      }),
    },
    async (request) => changeWebhook(app.db, app.config, request.actor, request.params.webhookId, request.body),
  );

  app.delete(
    '/webhooks/:webhookId',
    {
      config: { permission: 'webhooks:manage' },
      schema: operation({
        operationId: 'deleteWebhook',
        tag: TAG,
        summary: 'Delete a webhook',
        description: `${ADMINS} Permanent, with its deliveries: none is made after the answer (one in flight may still arrive).`,
        params: WebhookParams,
        response: Empty,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => {
      await removeWebhook(app.db, request.actor, request.params.webhookId);
      return {};
    },
  );

  app.post(
    '/webhooks/:webhookId/rotate-secret',
    {
      config: { permission: 'webhooks:manage' },
      schema: operation({
        operationId: 'rotateWebhookSecret',
        tag: TAG,
        summary: 'Replace a webhook\'s secret',
        description:
          `${ADMINS} Answers the webhook with a new \`secret\`, shown this once. For 24 hours (until \`previousSecretExpiresAt\`) ` +
          'deliveries carry two v1 signatures, one with each secret, so receivers can switch without losing a delivery; a secret ' +
          'still in the grace period of an earlier rotation stops signing at once.',
        params: WebhookParams,
        response: WebhookWithSecret,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => rotateWebhookSecret(app.db, app.config, request.actor, request.params.webhookId),
  );

  app.post(
    '/webhooks/:webhookId/ping',
    {
      config: { permission: 'webhooks:manage' },
      schema: operation({
        operationId: 'pingWebhook',
        tag: TAG,
        summary: 'Send a test ping',
        description:
          `${ADMINS} Queues a delivery of type \`ping\` (data \`{webhookId}\`), signed and retried like any other, behind the ` +
          'webhook\'s earlier deliveries; answers it. A disabled webhook gets it once enabled again.',
        params: WebhookParams,
        response: Type.Ref(WebhookDelivery),
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => pingWebhook(app.db, request.actor, request.params.webhookId),
  );

  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      config: { permission: 'webhooks:manage' },
      schema: operation({
        operationId: 'listWebhookDeliveries',
        tag: TAG,
        summary: 'A webhook\'s latest deliveries',
        description:
          `${ADMINS} The latest 100 deliveries, newest first, each with its attempts (when, the receiver's status, how long, why it failed) ` +
          'and, while pending, when the next attempt is due. Kept for 30 days after they finish.',
        params: WebhookParams,
        response: DeliveryList,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => webhookDeliveries(app.db, request.actor, request.params.webhookId),
  );

  app.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      config: { permission: 'webhooks:manage' },
      schema: operation({
        operationId: 'redeliverWebhookDelivery',
        tag: TAG,
        summary: 'Deliver an event again',
        description:
          `${ADMINS} Queues a new delivery of the same event (same event id and body, newly signed) behind the webhook's other ` +
          'deliveries, whatever the first one\'s outcome; answers it.',
        params: DeliveryParams,
        response: Type.Ref(WebhookDelivery),
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => redeliver(app.db, request.actor, request.params.webhookId, request.params.deliveryId),
  );
};
