import { Type, type Static } from '@sinclair/typebox';
import { Annotated, FieldsQuery, Id, Timestamp } from './common.js';
import { EVENT_TOPICS, type EventTopic } from './event-topics.js';

/** Every topic, in a file of its own that imports nothing, which the admin page loads too. */
export { EVENT_TOPICS, type EventTopic, isEventTopic, TOPIC_READ_SCOPES } from './event-topics.js';

export const EventTopicSchema = Type.Unsafe<EventTopic>({ type: 'string', enum: [...EVENT_TOPICS], title: 'EventTopic', description: 'What changed' });

export const Event = Type.Object(
  {
    id: Annotated(Id, { description: 'Increasing; the `webhook-id` of its deliveries, for de-duplication' }),
    storeId: Id,
    createdAt: Timestamp,
    topic: EventTopicSchema,
    subjectId: Annotated(Id, { description: 'Id of the record that changed' }),
    data: Type.Object({}, { additionalProperties: true, description: 'The record as the API returns it (for deletions: as it was)' }),
    previous: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, description: 'Updates only (`….updated`): the record as it was before the change, in the shape of `data`' },
      ),
    ),
  },
  { title: 'Event', $id: 'Event', additionalProperties: false },
);
export type Event = Static<typeof Event>;

export const EventFeedQuery = Type.Object(
  {
    after: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: 'Only events with a greater id' })),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Events to return, 1–100' })),
    ...FieldsQuery,
  },
  { title: 'EventFeedQuery', additionalProperties: false },
);
export type EventFeedQuery = Static<typeof EventFeedQuery>;
