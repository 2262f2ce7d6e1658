import type { Kysely, Selectable } from 'kysely';
import type { Engine } from '../engine.js';
import { insertFromArrays } from './array-insert.js';
import { type Event, EVENT_TOPICS, type EventTopic } from '../../contract/events.js';
import type { EventRepository, NewEvent } from '../../modules/events/event-repository.js';
import type { Tables } from '../tables.js';
import type { EventsTable } from '../tables/webhook-tables.js';

/** 7 bound parameters per row: 4000 rows stay under SQLite's 32 766 and PostgreSQL's 65 535. */
const ROWS_PER_INSERT = 4000;

export class KyselyEventRepository implements EventRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
  ) {}

  async append(events: readonly NewEvent[], createdAt: string): Promise<void> {
    if (events.length === 0) return;
    if (this.engine.insertsRowsFromArrays) {
      await insertFromArrays('events', {
        store_id: { type: 'bigint', values: events.map((event) => event.storeId) },
        topic: { type: 'text', values: events.map((event) => event.topic) },
        subject_id: { type: 'bigint', values: events.map((event) => event.subjectId) },
        data: { type: 'text', values: events.map((event) => JSON.stringify(event.data)) },
        previous: { type: 'text', values: events.map(previousOf) },
        created_at: { type: 'text', values: events.map(() => createdAt) },
      }).execute(this.db);
      return;
    }
    for (let start = 0; start < events.length; start += ROWS_PER_INSERT) {
      await this.db
        .insertInto('events')
        .values(
          events.slice(start, start + ROWS_PER_INSERT).map((event) => ({
            store_id: event.storeId,
            topic: event.topic,
            subject_id: event.subjectId,
            data: JSON.stringify(event.data),
            previous: previousOf(event),
            created_at: createdAt,
            fanned_out: 0,
          })),
        )
        .execute();
    }
  }

  async listAfter(storeId: number, afterId: number, count: number, topics: readonly EventTopic[]): Promise<Event[]> {
    if (topics.length === 0) return [];
    let query = this.db.selectFrom('events').selectAll().where('store_id', '=', storeId).where('id', '>', afterId);
    if (topics.length < EVENT_TOPICS.length) query = query.where('topic', 'in', topics);
    const rows = await query.orderBy('id').limit(count).execute();
    return rows.map(toEvent);
  }
}

/** An event as the feed and deliveries carry it: `previous` only on an update that has one. */
export function toEvent(row: Pick<Selectable<EventsTable>, 'id' | 'store_id' | 'created_at' | 'topic' | 'subject_id' | 'data' | 'previous'>): Event {
  return {
    id: Number(row.id),
    storeId: Number(row.store_id),
    createdAt: row.created_at,
    topic: row.topic as EventTopic,
    subjectId: Number(row.subject_id),
    data: JSON.parse(row.data) as Event['data'],
    ...(row.previous !== null && { previous: JSON.parse(row.previous) as NonNullable<Event['previous']> }),
  };
}

function previousOf(event: NewEvent): string | null {
  return event.previous === undefined ? null : JSON.stringify(event.previous);
}
