import type { PriceListPrice } from '../../contract/price-lists.js';
import { listEntryRecord } from '../history/change-records.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import { type PricedRecordKind, PricedRecordWrites, type PricedRecordWritesOptions } from '../priced-records/priced-record-writes.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { PricedEntry, PriceListPriceOwner } from './price-list-repository.js';

/** The list whose entries a creation or deletion writes. */
export interface OfList {
  priceListId: number;
}

/**
 * List entries as priced records: created and deleted in a list, 1000 a statement (a bulk
 * create's, in one), nothing between batches unless the writer asks (a replace gives other
 * requests a turn, `nextTurn`).
 */
const LIST_ENTRIES: PricedRecordKind<PriceListPrice, PricedEntry, OfList, PriceListPriceOwner> = {
  created: 'price_list_price.created',
  deleted: 'price_list_price.deleted',
  historyRecord: listEntryRecord,
  batch: 1000,
  pace: async () => undefined,
  insert: (repos, storeId, items, createdAt, { priceListId }) => repos.priceLists.insertPrices(storeId, priceListId, items, createdAt),
  deleteMany: (repos, storeId, ids, deletedAt, { priceListId }) => repos.priceLists.deletePrices(storeId, priceListId, ids, deletedAt),
  deleteOne: (repos, storeId, id, deletedAt, { priceListId }) => repos.priceLists.deletePrice(storeId, priceListId, id, deletedAt),
  deleteBatchOf: (repos, storeId, owner, afterId, limit, deletedAt) => repos.priceLists.deletePriceBatchOf(storeId, owner, afterId, limit, deletedAt),
  restore: (repos, storeId, entries, createdAt) => repos.priceLists.restorePrices(storeId, entries, createdAt),
};

/**
 * The one way price list entries change (`PricedRecordWrites`): the bulk create, replace, a
 * single delete, a change set's revert, and the cascades of a list's, a product's or a SKU's
 * deletion.
 */
export class PriceListEntryWrites extends PricedRecordWrites<PriceListPrice, PricedEntry, OfList, PriceListPriceOwner> {
  constructor(repos: Repositories, storeId: number, origin: ChangeOrigin, changedAt: string, options: PricedRecordWritesOptions<PricedEntry> = {}) {
    super(LIST_ENTRIES, repos, storeId, origin, changedAt, options);
  }
}
