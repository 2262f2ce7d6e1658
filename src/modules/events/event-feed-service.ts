import type { Event, EventTopic } from '../../contract/events.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';

/** Events are kept at least this long; the maintenance loop purges older ones. */
export const EVENT_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** `GET /v1/events`: the outbox as a feed, for integrators who poll instead of receiving webhooks. */
export class EventFeedService {
  constructor(private readonly uow: UnitOfWork) {}

  /** Only events of `topics`: those the credential may read (`readableTopics`). */
  list(storeId: number, afterId: number, count: number, topics: readonly EventTopic[]): Promise<Event[]> {
    return this.uow.repos.events.listAfter(storeId, afterId, count, topics);
  }
}
