import type { TradePrice } from '../../contract/trade-prices.js';
import { tradePriceRecord } from '../history/change-records.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import { type PricedRecordKind, PricedRecordWrites, type PricedRecordWritesOptions } from '../priced-records/priced-record-writes.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { nextTurn } from '../shared/long-work.js';
import type { NewTradePrice, TradePriceOwner } from './trade-price-repository.js';

/**
 * Records written, with their events, per batch: a batch of 500 (a cascade's) kept SQLite busy
 * for 12 to 25 ms on a loaded 2-core machine; 250 leaves room within the 50 ms a turn may take.
 */
export const WRITE_BATCH = 250;

/** Trade prices as priced records: no scope besides the store (a price names its customer), a turn of the event loop between batches. */
const TRADE_PRICES: PricedRecordKind<TradePrice, NewTradePrice, void, TradePriceOwner> = {
  created: 'trade_customer_product_price.created',
  deleted: 'trade_customer_product_price.deleted',
  historyRecord: tradePriceRecord,
  batch: WRITE_BATCH,
  pace: nextTurn,
  insert: (repos, storeId, items, createdAt) => repos.tradePrices.insertMany(storeId, items, createdAt),
  deleteMany: (repos, storeId, ids, deletedAt) => repos.tradePrices.deleteMany(storeId, ids, deletedAt),
  deleteOne: (repos, storeId, id, deletedAt) => repos.tradePrices.delete(storeId, id, deletedAt),
  deleteBatchOf: (repos, storeId, owner, afterId, limit, deletedAt) => repos.tradePrices.deleteBatchOf(storeId, owner, afterId, limit, deletedAt),
  restore: (repos, storeId, records, createdAt) => repos.tradePrices.restore(storeId, records, createdAt),
};

/**
 * The one way trade prices change (`PricedRecordWrites`): bulk create, replace, imports, a
 * single delete, a change set's revert, and the cascades of a customer's, a product's or a
 * SKU's deletion.
 */
export class TradePriceWrites extends PricedRecordWrites<TradePrice, NewTradePrice, void, TradePriceOwner> {
  constructor(repos: Repositories, storeId: number, origin: ChangeOrigin, changedAt: string, options: PricedRecordWritesOptions<NewTradePrice> = {}) {
    super(TRADE_PRICES, repos, storeId, origin, changedAt, options);
  }
}
