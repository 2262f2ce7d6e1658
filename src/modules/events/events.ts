import type { EventTopic } from '../../contract/events.js';
import type { NewEvent } from './event-repository.js';

/** The event announcing that `record` was created, changed or deleted. */
export function eventOf(storeId: number, topic: EventTopic, record: { id: number }): NewEvent {
  return { storeId, topic, subjectId: record.id, data: record };
}

/** The event announcing an update: the record as it is now (`data`) and as it was before (`previous`). */
export function updateEventOf(storeId: number, topic: EventTopic, previous: { id: number }, record: { id: number }): NewEvent {
  return { storeId, topic, subjectId: record.id, data: record, previous };
}

/** One event per record, in the records' order. */
export function eventsOf(storeId: number, topic: EventTopic, records: readonly { id: number }[]): NewEvent[] {
  return records.map((record) => eventOf(storeId, topic, record));
}
