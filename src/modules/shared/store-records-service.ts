import type { EventTopic } from '../../contract/event-topics.js';
import { eventOf, updateEventOf } from '../events/events.js';
import { type Clock, isoTimestamp } from './clock.js';
import { found, notFound } from './errors.js';
import type { Page } from './page.js';
import type { StoreRecordListing, StoreRecords } from './store-records.js';
import type { Repositories, UnitOfWork } from './unit-of-work.js';

/** A resource's service: built on the unit of work and the clock, it lists and counts the store's records through `records`. */
export abstract class StoreRecordsService<Record, Filter> {
  constructor(
    protected readonly uow: UnitOfWork,
    protected readonly clock: Clock,
  ) {}

  /** The repository of the resource, among those of a unit of work. */
  protected abstract records(repos: Repositories): StoreRecordListing<Record, Filter>;

  list(storeId: number, filter: Filter, page: Page): Promise<Record[]> {
    return this.records(this.uow.repos).list(storeId, filter, page);
  }

  count(storeId: number, filter: Filter): Promise<number> {
    return this.records(this.uow.repos).count(storeId, filter);
  }
}

/** The topics of a resource's events: `<topic>.created`, `.updated` and `.deleted` (`contract/event-topics.ts`). */
export type RecordTopic = {
  [Topic in EventTopic]: Topic extends `${infer Name}.created` ? (`${Name}.${'updated' | 'deleted'}` extends EventTopic ? Name : never) : never;
}[EventTopic];

export interface PlainRecords<Record, Fields, Filter> {
  /** The records' repository among those of a unit of work (a field of `Repositories`). */
  records(repos: Repositories): StoreRecords<Record, Fields, Filter>;
  /** Its events' topics: `warehouse` announces `warehouse.created`, `.updated` (with `previous`) and `.deleted`. */
  topic: RecordTopic;
  /** The record in a 404's message: `Warehouse 12 not found`. */
  noun: string;
}

/**
 * The service of a plain resource, one whose writes check nothing beyond its schema: list, count,
 * get, create, update and delete, each write in one transaction with its event. A resource with
 * rules of its own (a category's parent, a group's lists) writes its own service instead, on
 * `StoreRecordsService`; a plain one is built in `app/services.ts` from its repository and topic.
 */
export class PlainRecordsService<Record extends { id: number }, Fields, Filter> extends StoreRecordsService<Record, Filter> {
  constructor(
    uow: UnitOfWork,
    clock: Clock,
    private readonly plain: PlainRecords<Record, Fields, Filter>,
  ) {
    super(uow, clock);
  }

  protected records(repos: Repositories): StoreRecords<Record, Fields, Filter> {
    return this.plain.records(repos);
  }

  async get(storeId: number, id: number): Promise<Record> {
    return found(await this.records(this.uow.repos).find(storeId, id), `${this.plain.noun} ${id}`);
  }

  create(storeId: number, fields: Fields): Promise<Record> {
    return this.uow.transaction(async (repos) => {
      const createdAt = isoTimestamp(this.clock);
      const created = await this.records(repos).insert(storeId, fields, createdAt);
      await repos.events.append([eventOf(storeId, `${this.plain.topic}.created`, created)], createdAt);
      return created;
    });
  }

  /** The event carries the record as it was (`previous`). */
  update(storeId: number, id: number, patch: Partial<Fields>): Promise<Record> {
    return this.uow.transaction(async (repos) => {
      const what = `${this.plain.noun} ${id}`;
      const current = found(await this.records(repos).find(storeId, id), what);
      const updated = found(await this.records(repos).update(storeId, id, patch), what);
      await repos.events.append([updateEventOf(storeId, `${this.plain.topic}.updated`, current, updated)], isoTimestamp(this.clock));
      return updated;
    });
  }

  remove(storeId: number, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      const what = `${this.plain.noun} ${id}`;
      const record = found(await this.records(repos).find(storeId, id), what);
      if (!(await this.records(repos).delete(storeId, id))) throw notFound(what);
      await repos.events.append([eventOf(storeId, `${this.plain.topic}.deleted`, record)], isoTimestamp(this.clock));
    });
  }
}
