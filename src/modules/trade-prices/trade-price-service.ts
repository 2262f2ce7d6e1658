import {
  MAX_BULK_ITEMS,
  type ReplaceTradePricesRequest,
  type ReplaceTradePricesResult,
  type TradePrice,
  type TradePriceInput,
} from '../../contract/trade-prices.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { found, refusedBy, validationFailed } from '../shared/errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { Page } from '../shared/page.js';
import { checkPricedItems } from '../pricing/priced-sku-check.js';
import { customerProblem } from '../pricing/trade-customer.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { nextTurn } from '../shared/long-work.js';
import { diffWithStored, onNextTurn } from './replace-steps.js';
import type { NewTradePrice, TradePriceFilter, TradePriceOrder } from './trade-price-repository.js';
import { TradePriceWrites } from './trade-price-writes.js';
export class TradePriceService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  list(storeId: number, filter: TradePriceFilter, page: Page, order?: TradePriceOrder): Promise<TradePrice[]> {
    return this.uow.repos.tradePrices.list(storeId, filter, page, order);
  }

  count(storeId: number, filter: TradePriceFilter): Promise<number> {
    return this.uow.repos.tradePrices.count(storeId, filter);
  }

  async get(storeId: number, id: number): Promise<TradePrice> {
    return found(await this.uow.repos.tradePrices.find(storeId, id), `Trade customer product price ${id}`);
  }

  /**
   * Creates every item or none. `shapeProblems` are what the schema refused; the items are
   * checked against the store (`checkPricedItems`) and every problem is reported together.
   * Never looks at existing trade prices: the same item twice makes two records.
   */
  bulkCreate(storeId: number, origin: ChangeOrigin, items: readonly TradePriceInput[], shapeProblems: readonly FieldProblem[] = []): Promise<TradePrice[]> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const { checked, problems } = await checkPricedItems(repos, storeId, items, shapeProblems);
      if (problems.length > 0) throw validationFailed(problems, items.length);
      const records: NewTradePrice[] = checked.map((price, index) => ({ customerId: items[index]!.customerId, ...price }));
      // One statement for the whole batch (at most MAX_BULK_ITEMS), as before the pacing of larger writes.
      return new TradePriceWrites(repos, storeId, origin, isoTimestamp(this.clock), { batch: MAX_BULK_ITEMS, pace: async () => undefined }).create(records);
    });
  }

  /**
   * Makes the customer's prices exactly `prices` (scope `customer`) or replaces the prices of
   * the SKUs named (scope `skus`), in one transaction: a price equal in every field to a record
   * already there keeps that record and its id (no event); the others are created, the records
   * left over deleted, each with its event. `shapeProblems` are what the schema refused (an
   * item's with its `index`); the items are checked as a bulk create's, and every problem is
   * reported together. A dry run answers the same and changes nothing.
   */
  async replace(
    storeId: number,
    origin: ChangeOrigin,
    request: ReplaceTradePricesRequest,
    shapeProblems: readonly FieldProblem[] = [],
  ): Promise<ReplaceTradePricesResult> {
    // Up to 10 000 items were just parsed and validated: the checks get a turn of their own.
    await nextTurn();
    return this.uow
      .transaction(async (repos) => {
        // A dry run writes nothing: it need not queue behind the store's price writers.
        if (request.dryRun !== true) await repos.history.lockChain(storeId);
        const refused = refusedBy(shapeProblems);
        if (refused(undefined, null)) throw validationFailed(shapeProblems);
        const items = refused(undefined, 'prices') ? [] : request.prices;
        const { checked, problems } = await checkPricedItems(repos, storeId, items, shapeProblems);
        if (!refused(undefined, 'customerId')) {
          const customer = await repos.customers.find(storeId, request.customerId);
          const message = customerProblem(`Customer ${request.customerId}`, customer, { trade: items.length > 0 });
          if (message !== undefined) problems.push({ field: 'customerId', message });
        }
        if (problems.length > 0) throw validationFailed(problems);

        const desired: NewTradePrice[] = checked.map((item) => ({ customerId: request.customerId, ...item }));
        const diff = await diffWithStored(
          repos,
          storeId,
          request.customerId,
          request.scope === 'skus' ? [...new Set(desired.map((item) => item.sku))] : undefined,
          desired,
        );
        if (request.dryRun === true) {
          return { created: diff.create.map((item) => ({ id: null, ...item, createdAt: null })), deleted: diff.remove, unchanged: diff.unchanged.length };
        }
        const created = await new TradePriceWrites(repos, storeId, origin, isoTimestamp(this.clock)).apply(diff);
        return { created, deleted: diff.remove, unchanged: diff.unchanged.length };
      })
      .then(onNextTurn);
  }

  /**
   * Deletes these records together (a change set's deletions), each with its event. An id
   * the store has no live record of is a problem with its `index`, and nothing is deleted.
   */
  removeMany(storeId: number, origin: ChangeOrigin, ids: readonly number[]): Promise<TradePrice[]> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const live = new Map((await repos.tradePrices.findMany(storeId, ids)).map((record) => [record.id, record]));
      const problems: FieldProblem[] = [];
      const seen = new Set<number>();
      ids.forEach((id, index) => {
        if (!live.has(id) || seen.has(id))
          problems.push({ index, field: 'id', message: `Trade customer product price ${id} does not exist (deleted already?)` });
        seen.add(id);
      });
      if (problems.length > 0) throw validationFailed(problems, ids.length);
      const records = ids.map((id) => live.get(id)!);
      await new TradePriceWrites(repos, storeId, origin, isoTimestamp(this.clock)).remove(records);
      return records;
    });
  }

  /**
   * Puts deleted records back as they were, with their own ids (a change set's revert), so the
   * tie rule ranks them as before. Refused, with each id's `index`: an id that is live, one
   * the store never deleted, or a record that cannot be as it was: its customer deleted (its
   * records went with it), its product deleted, its SKU no longer the product's. Not refused
   * for what only a new price must be: a customer whose trade flag went off since keeps the
   * records it had, so one of them comes back too.
   */
  restore(storeId: number, origin: ChangeOrigin, ids: readonly number[]): Promise<TradePrice[]> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const live = new Set((await repos.tradePrices.findMany(storeId, ids)).map((record) => record.id));
      const kept = new Map((await repos.tradePrices.lastDeleted(storeId, ids)).map((record) => [record.id, record]));
      const problems: FieldProblem[] = [];
      const seen = new Set<number>();
      ids.forEach((id, index) => {
        if (live.has(id) || seen.has(id))
          problems.push({ index, field: 'id', message: `Trade customer product price ${id} exists: only a deleted record can be restored` });
        else if (!kept.has(id)) problems.push({ index, field: 'id', message: `Trade customer product price ${id} was never deleted in this store` });
        seen.add(id);
      });
      if (problems.length > 0) throw validationFailed(problems, ids.length);
      const records = ids.map((id) => kept.get(id)!);
      const checks = await checkPricedItems(repos, storeId, records, [], { trade: false });
      if (checks.problems.length > 0) throw validationFailed(checks.problems, ids.length);
      return new TradePriceWrites(repos, storeId, origin, isoTimestamp(this.clock)).restore(records);
    });
  }

  remove(storeId: number, origin: ChangeOrigin, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      found(await new TradePriceWrites(repos, storeId, origin, isoTimestamp(this.clock)).removeById(id), `Trade customer product price ${id}`);
    });
  }
}
