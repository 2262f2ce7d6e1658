import { Type, type Static } from '@sinclair/typebox';
import { Annotated, FieldsQuery, Id, Timestamp } from './common.js';

/** Every kind of change announced by an event, as webhook topics name them. */
export const EVENT_TOPICS = [
  'trade_customer_product_price.created',
  'trade_customer_product_price.deleted',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'customer_group.created',
  'customer_group.updated',
  'customer_group.deleted',
  'product.created',
  'product.updated',
  'product.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
  'order.created',
  'price_list.created',
  'price_list.updated',
  'price_list.deleted',
  'price_list_price.created',
  'price_list_price.deleted',
  'import.succeeded',
  'import.failed',
  'change_set.submitted',
  'change_set.approved',
  'change_set.applied',
  'change_set.failed',
  'change_set.reverted',
] as const;

export type EventTopic = (typeof EVENT_TOPICS)[number];

export function isEventTopic(value: string): value is EventTopic {
  return (EVENT_TOPICS as readonly string[]).includes(value);
}

export const EventTopicSchema = Type.Unsafe<EventTopic>({ type: 'string', enum: [...EVENT_TOPICS], description: 'What changed' });

export const Event = Type.Object(
  {
    id: Annotated(Id, { description: 'Increasing; the `webhook-id` of its deliveries, for de-duplication' }),
    storeId: Id,
    createdAt: Timestamp,
    topic: EventTopicSchema,
    subjectId: Annotated(Id, { description: 'Id of the record that changed' }),
    data: Type.Object({}, { additionalProperties: true, description: 'The record as the API returns it (for deletions: as it was)' }),
    previous: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'Updates only (`….updated`): the record as it was before the change, in the shape of `data`' }),
    ),
  },
  { $id: 'Event', additionalProperties: false },
);
export type Event = Static<typeof Event>;

export const EventFeedQuery = Type.Object(
  {
    after: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: 'Only events with a greater id' })),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Events to return, 1–100' })),
    ...FieldsQuery,
  },
  { additionalProperties: false },
);
export type EventFeedQuery = Static<typeof EventFeedQuery>;
