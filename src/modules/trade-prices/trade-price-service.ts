import type { ReplaceTradePricesRequest, ReplaceTradePricesResult, TradePrice, TradePriceInput } from '../../contract/trade-prices.js';
import { type Clock, isoTimestamp } from '../clock.js';
import { type FieldProblem, found, refusedBy, validationFailed } from '../errors.js';
import type { Page } from '../page.js';
import { eventOf, eventsOf } from '../events/events.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { BatchReferences, NewTradePrice, TradePriceFilter } from './trade-price-repository.js';
import { ruleFieldsOf } from '../pricing/price-rule-input.js';
import { productProblems } from '../pricing/product-references.js';
import { checkPricedSkus } from '../pricing/priced-sku-check.js';
import { applyPriceDiff, diffWithStored, onNextTurn } from './replace-in-batches.js';
import { nextTurn } from '../yield-to-other-work.js';

export class TradePriceService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  list(storeId: number, filter: TradePriceFilter, page: Page): Promise<TradePrice[]> {
    return this.uow.repos.tradePrices.list(storeId, filter, page);
  }

  count(storeId: number, filter: TradePriceFilter): Promise<number> {
    return this.uow.repos.tradePrices.count(storeId, filter);
  }

  async get(storeId: number, id: number): Promise<TradePrice> {
    return found(await this.uow.repos.tradePrices.find(storeId, id), `Trade customer product price ${id}`);
  }

  /**
   * Creates every item or none. `shapeProblems` are the items the schema already refused;
   * the others are checked against the store's customers, products and SKUs in three queries,
   * and their validity windows, and all problems are reported together. Never looks at existing trade prices: the same
   * item twice makes two records.
   */
  bulkCreate(storeId: number, items: readonly TradePriceInput[], shapeProblems: readonly FieldProblem[] = []): Promise<TradePrice[]> {
    return this.uow.transaction(async (repos) => {
      const refused = new Set(shapeProblems.map((problem) => problem.index));
      const checkable = items.filter((_item, index) => !refused.has(index));
      const references = await repos.tradePrices.findReferences(
        storeId,
        unique(checkable.map((item) => item.customerId)),
        unique(checkable.map((item) => item.productId)),
        unique(checkable.map((item) => item.sku)),
      );
      const problems = [...shapeProblems];
      const records: NewTradePrice[] = [];
      items.forEach((item, index) => {
        if (refused.has(index)) return;
        problems.push(...referenceProblems(item, index, references));
        const rule = ruleFieldsOf(item, index);
        problems.push(...rule.problems);
        records.push({ customerId: item.customerId, productId: item.productId, sku: item.sku, price: item.price, ...rule.fields });
      });
      if (problems.length > 0) {
        problems.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        throw validationFailed(problems, items.length);
      }
      const createdAt = isoTimestamp(this.clock);
      const created = await repos.tradePrices.insertMany(storeId, records, createdAt);
      await repos.events.append(eventsOf(storeId, 'trade_customer_product_price.created', created), createdAt);
      return created;
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
  async replace(storeId: number, request: ReplaceTradePricesRequest, shapeProblems: readonly FieldProblem[] = []): Promise<ReplaceTradePricesResult> {
    // Up to 10 000 items were just parsed and validated: the checks get a turn of their own.
    await nextTurn();
    return this.uow.transaction(async (repos) => {
      const refused = refusedBy(shapeProblems);
      if (refused(undefined, null)) throw validationFailed(shapeProblems);
      const items = refused(undefined, 'prices') ? [] : request.prices;
      const refusedItems = new Set(shapeProblems.flatMap((problem) => (problem.index === undefined ? [] : [problem.index])));
      const { checked, problems: itemProblems } = await checkPricedSkus(repos, storeId, items, refusedItems);
      const problems = [...shapeProblems, ...itemProblems];
      if (!refused(undefined, 'customerId')) {
        const customer = await repos.customers.find(storeId, request.customerId);
        if (customer === undefined) problems.push({ field: 'customerId', message: `Customer ${request.customerId} does not exist in this store` });
        else if (!customer.trade && items.length > 0) problems.push({ field: 'customerId', message: `Customer ${request.customerId} is not a trade customer` });
      }
      if (problems.length > 0) throw validationFailed([...problems].sort((a, b) => (a.index ?? -1) - (b.index ?? -1)));

      const desired: NewTradePrice[] = checked.map((item) => ({ customerId: request.customerId, ...item }));
      const diff = await diffWithStored(repos, storeId, request.customerId, request.scope === 'skus' ? [...new Set(desired.map((item) => item.sku))] : undefined, desired);
      if (request.dryRun === true) {
        return { created: diff.create.map((item) => ({ id: null, ...item, createdAt: null })), deleted: diff.remove, unchanged: diff.unchanged.length };
      }
      const created = await applyPriceDiff(repos, storeId, diff, isoTimestamp(this.clock));
      return { created, deleted: diff.remove, unchanged: diff.unchanged.length };
    }).then(onNextTurn);
  }

  remove(storeId: number, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      const deleted = found(await repos.tradePrices.delete(storeId, id), `Trade customer product price ${id}`);
      await repos.events.append([eventOf(storeId, 'trade_customer_product_price.deleted', deleted)], isoTimestamp(this.clock));
    });
  }
}

/** The stated causes an item can have once its shape is right. */
function referenceProblems(item: TradePriceInput, index: number, references: BatchReferences): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const customer = references.customers.get(item.customerId);
  if (customer === undefined) {
    problems.push({ index, field: 'customerId', message: `Customer ${item.customerId} does not exist in this store` });
  } else if (!customer.trade) {
    problems.push({ index, field: 'customerId', message: `Customer ${item.customerId} is not a trade customer` });
  }
  problems.push(...productProblems(item, index, references));
  return problems;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
