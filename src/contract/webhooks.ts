import { Type, type Static } from '@sinclair/typebox';
import { Annotated, Id, PageQuery, StrictObject, Timestamp } from './common.js';
import { EventTopicSchema } from './events.js';

/** At most this many webhooks per topic and store. */
export const MAX_WEBHOOKS_PER_TOPIC = 10;

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'https:// address of the receiver; its host must resolve to public addresses only (not loopback, private, link-local, metadata or IPv4-embedding IPv6)',
});

export const WebhookInput = StrictObject({ topic: EventTopicSchema, url: Url }, { title: 'WebhookInput' });
export type WebhookInput = Static<typeof WebhookInput>;

export const WebhookUpdate = Type.Object(
  {
    topic: Type.Optional(EventTopicSchema),
    url: Type.Optional(Annotated(Url, { description: 'A new address is verified again before events go to it' })),
    active: Type.Optional(Type.Boolean({ description: 'true re-activates a disabled webhook and clears its failures' })),
  },
  { title: 'WebhookUpdate', additionalProperties: false, minProperties: 1 },
);
export type WebhookUpdate = Static<typeof WebhookUpdate>;

/** A verification request carries no options: send `{}`. */
export const WebhookVerifyRequest = StrictObject({});

export const Webhook = Type.Object(
  {
    id: Id,
    topic: EventTopicSchema,
    url: Type.String(),
    active: Type.Boolean({ description: 'false: disabled by the store, by a 410 answer or after every retry failed' }),
    verified: Type.Boolean({ description: 'The receiver answered the verification handshake; only then are events delivered' }),
    createdAt: Timestamp,
  },
  { title: 'Webhook', $id: 'Webhook', additionalProperties: false },
);
export type Webhook = Static<typeof Webhook>;

export const CreatedWebhook = Type.Composite(
  [Webhook, Type.Object({ secret: Type.String({ description: 'whsec_… signing secret: shown only in this response' }) })],
  { title: 'CreatedWebhook', $id: 'CreatedWebhook', additionalProperties: false },
);
export type CreatedWebhook = Static<typeof CreatedWebhook>;

export const WebhookListQuery = Type.Object(
  { ...PageQuery, topic: Type.Optional(EventTopicSchema) },
  { title: 'WebhookListQuery', additionalProperties: false },
);
export type WebhookListQuery = Static<typeof WebhookListQuery>;

export const WebhookCountQuery = Type.Object({ topic: Type.Optional(EventTopicSchema) }, { additionalProperties: false });

/** A webhook's delivery of one event: the worker's own record of it (docs/webhooks.md). */
export const WebhookDelivery = Type.Object(
  {
    id: Id,
    eventId: Annotated(Id, { description: 'The event delivered (`GET /v1/events?after=` finds it; its `webhook-id` header)' }),
    status: Type.Unsafe<'pending' | 'delivered' | 'failed'>({
      type: 'string',
      enum: ['pending', 'delivered', 'failed'],
      description: 'pending: to be tried (again); delivered: a 2xx came back; failed: its retries were used up, or the webhook was disabled or changed',
    }),
    attempts: Type.Integer({ minimum: 0, description: 'Attempts made so far' }),
    lastStatus: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The HTTP status of the last failed attempt; null before one fails, once delivered (a 2xx came back), or when the failure got no answer',
    }),
    lastError: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the last failed attempt failed (a timeout, a refused connection, a status); null before one fails and once delivered',
    }),
    nextAttemptAt: Type.Union([Timestamp, Type.Null()], { description: 'When a pending delivery is tried next; null once it has ended' }),
    createdAt: Timestamp,
    finishedAt: Type.Union([Timestamp, Type.Null()], { description: 'When it was delivered or gave up; null while pending' }),
  },
  { title: 'WebhookDelivery', $id: 'WebhookDelivery', additionalProperties: false },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryListQuery = Type.Object(
  {
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Deliveries to return, 1–100' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Deliveries to skip, newest first' })),
  },
  { title: 'WebhookDeliveryListQuery', additionalProperties: false },
);
export type WebhookDeliveryListQuery = Static<typeof WebhookDeliveryListQuery>;
