import type { Event } from '../../contract/events.js';
import type { UnitOfWork } from '../unit-of-work.js';

/** Events are kept at least this long; the delivery worker purges older ones. */
export const EVENT_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** `GET /v1/events`: the outbox as a feed, for integrators who poll instead of receiving webhooks. */
export class EventFeedService {
  constructor(private readonly uow: UnitOfWork) {}

  list(storeId: number, afterId: number, count: number): Promise<Event[]> {
    return this.uow.repos.events.listAfter(storeId, afterId, count);
  }
}
