import type { Customer } from '../../contract/customers.js';
import { MAX_ORDER_AMOUNT, type Order, type OrderInput } from '../../contract/orders.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { quantityBreaks } from '../quantity-rules/quantity-rule.js';
import { found, refusedBy, validationFailed } from '../shared/errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import type { PricingService } from '../pricing/pricing-service.js';
import { customerProblem } from '../pricing/trade-customer.js';
import { eventOf } from '../events/events.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { formatUnits, isOrderAmount } from '../shared/order-amounts.js';
import type { NewOrderLine, OrderFilter } from './order-repository.js';
import { StoreRecordsService } from '../shared/store-records-service.js';

export class OrderService extends StoreRecordsService<Order, OrderFilter> {
  constructor(
    uow: UnitOfWork,
    clock: Clock,
    private readonly pricing: PricingService,
  ) {
    super(uow, clock);
  }

  protected records(repos: Repositories) {
    return repos.orders;
  }

  async get(storeId: number, id: number): Promise<Order> {
    return found(await this.uow.repos.orders.find(storeId, id), `Order ${id}`);
  }

  /**
   * Places the order, or nothing. `shapeProblems` are what the schema refused (a line's carry
   * its `index`); everything else is checked against the store, and all problems are reported
   * together. Each line is priced by the resolution rule at its quantity and the order's time,
   * in this same transaction, and captured in the order with the source of its price: later
   * price changes never touch it. Rules: an
   * active customer; each SKU of the store at most once, on an active product; every line
   * total and the total below MAX_ORDER_AMOUNT.
   */
  create(storeId: number, input: OrderInput, shapeProblems: readonly FieldProblem[] = []): Promise<Order> {
    return this.uow.transaction(async (repos) => {
      const refused = refusedBy(shapeProblems);
      // A body that is not even an object has no parts to check.
      if (refused(undefined, null)) throw validationFailed(shapeProblems);
      const problems: FieldProblem[] = [...shapeProblems];

      const customer = refused(undefined, 'customerId') ? undefined : await repos.customers.find(storeId, input.customerId);
      if (!refused(undefined, 'customerId')) problems.push(...customerProblems(input.customerId, customer));

      // A line the schema refused as a whole (null, a number, an array) has no fields to read.
      const lines = refused(undefined, 'lines') ? [] : input.lines.map((line, index) => (refused(index, null) ? undefined : line));
      // The line each SKU is ordered on; a later line with the same SKU is refused, not merged.
      const lineOfSku = new Map<string, number>();
      lines.forEach((line, index) => {
        if (line === undefined || refused(index, 'sku')) return;
        const first = lineOfSku.get(line.sku);
        if (first === undefined) lineOfSku.set(line.sku, index);
        else
          problems.push({
            index,
            field: 'sku',
            message: `SKU '${line.sku}' is already ordered on line ${first}; order each SKU once, with its whole quantity`,
          });
      });

      // Every line is priced at the moment the order is placed, in this transaction.
      const createdAt = isoTimestamp(this.clock);
      const toPrice = lines.map((line, index) =>
        line === undefined || refused(index, 'sku') || lineOfSku.get(line.sku) !== index
          ? undefined
          : { sku: line.sku, quantity: refused(index, 'quantity') ? undefined : line.quantity },
      );
      // Without a valid customer the catalog still tells which SKUs exist.
      const { lines: pricedLines, catalog } = await this.pricing.priceLines(repos, storeId, customer, toPrice, createdAt);
      const inactive = await repos.orders.inactiveProductIds(storeId, [...new Set([...catalog.values()].map((entry) => entry.productId))]);
      for (const [sku, index] of lineOfSku) {
        const entry = catalog.get(sku);
        if (entry === undefined) problems.push({ index, field: 'sku', message: `SKU '${sku}' does not exist in this store` });
        else if (inactive.has(entry.productId))
          problems.push({ index, field: 'sku', message: `SKU '${sku}' belongs to product ${entry.productId}, which is inactive` });
      }

      const priced: NewOrderLine[] = [];
      pricedLines.forEach((line, index) => {
        if (line === undefined || customer === undefined || inactive.has(line.productId)) return;
        const broken = quantityBreaks(line.quantityRule, line.quantity);
        if (broken !== undefined) problems.push({ index, field: 'quantity', message: broken });
        else if (!isOrderAmount(line.lineTotalUnits)) {
          problems.push({
            index,
            field: 'quantity',
            message: `makes the line total ${formatUnits(line.lineTotalUnits)}; a line total must be below ${MAX_ORDER_AMOUNT}`,
          });
        }
        priced.push({
          sku: line.sku,
          quantity: line.quantity,
          productId: line.productId,
          variationId: line.variationId,
          unitPriceUnits: BigInt(line.priceUnits),
          lineTotalUnits: line.lineTotalUnits,
          source: line.source,
          tradePriceId: line.tradePriceId,
          priceListId: line.priceListId,
          priceListPriceId: line.priceListPriceId,
        });
      });
      const totalUnits = priced.reduce((sum, line) => sum + line.lineTotalUnits, 0n);
      if (problems.length === 0 && !isOrderAmount(totalUnits)) {
        problems.push({
          field: 'lines',
          message: `make the order total ${formatUnits(totalUnits)}; an order total must be below ${MAX_ORDER_AMOUNT} (split the order)`,
        });
      }

      if (problems.length > 0 || customer === undefined) throw validationFailed(problems);
      const order = await repos.orders.insert(storeId, { customerId: customer.id, status: 'placed', totalUnits, lines: priced }, createdAt);
      await repos.events.append([eventOf(storeId, 'order.created', order)], createdAt);
      return order;
    });
  }
}

function customerProblems(customerId: number, customer: Customer | undefined): FieldProblem[] {
  const message = customerProblem(`Customer ${customerId}`, customer, { trade: false, active: true });
  return message === undefined ? [] : [{ field: 'customerId', message }];
}
