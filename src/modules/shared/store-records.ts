import type { Page } from './page.js';

/** What a resource's repository answers a listing with: a page of a store's records by a filter, and how many match. */
export interface StoreRecordListing<Record, Filter> {
  list(storeId: number, filter: Filter, page: Page): Promise<Record[]>;
  count(storeId: number, filter: Filter): Promise<number>;
}

/**
 * A store's records of one kind as storage keeps them (`KyselyStoreRecords` in storage): listed,
 * counted, found by id, inserted with their creation time, updated by the fields given, deleted.
 */
export interface StoreRecords<Record, Fields, Filter> extends StoreRecordListing<Record, Filter> {
  find(storeId: number, id: number): Promise<Record | undefined>;
  insert(storeId: number, fields: Fields, createdAt: string): Promise<Record>;
  /** Only the fields given change; undefined when the store has no such record. */
  update(storeId: number, id: number, patch: Partial<Fields>): Promise<Record | undefined>;
  /** False when the store has no such record. */
  delete(storeId: number, id: number): Promise<boolean>;
}
