import type { Event, EventTopic } from '../../contract/events.js';

/** A change to announce: `data` is the record as the API returns it. */
export interface NewEvent {
  storeId: number;
  topic: EventTopic;
  subjectId: number;
  data: object;
  /** An update's record as it was before the change; absent for every other event. */
  previous?: object;
}

/** The outbox. Written inside the transaction of the change it announces. */
export interface EventRepository {
  /** One multi-row insert (split only past thousands of events); ids follow the given order. */
  append(events: readonly NewEvent[], createdAt: string): Promise<void>;
  /** The store's events of `topics` with an id above `afterId`, ascending. */
  listAfter(storeId: number, afterId: number, count: number, topics: readonly EventTopic[]): Promise<Event[]>;
}
