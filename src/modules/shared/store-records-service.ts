import type { Clock } from './clock.js';
import type { Page } from './page.js';
import type { Repositories, UnitOfWork } from './unit-of-work.js';

/** What a resource's repository answers a listing with: a page of a store's records by a filter, and how many match. */
export interface StoreRecordListing<Record, Filter> {
  list(storeId: number, filter: Filter, page: Page): Promise<Record[]>;
  count(storeId: number, filter: Filter): Promise<number>;
}

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
