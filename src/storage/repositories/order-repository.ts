import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Order, OrderLine } from '../../contract/orders.js';
import type { PriceSource } from '../../contract/trade-prices.js';
import { amountOf } from '../../modules/shared/order-amounts.js';
import type { NewOrder, OrderFilter, OrderRepository } from '../../modules/orders/order-repository.js';
import type { Page } from '../../modules/shared/page.js';
import type { Tables } from '../tables.js';
import type { OrderLinesTable, OrdersTable } from '../tables/order-tables.js';
import { toFlag } from './values.js';

export class KyselyOrderRepository implements OrderRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(storeId: number, order: NewOrder, createdAt: string): Promise<Order> {
    // The store's currency is read by the insert itself: no statement more than before orders had one.
    const { id, currency } = await this.db
      .insertInto('orders')
      .values((eb) => ({
        store_id: storeId,
        customer_id: order.customerId,
        status: order.status,
        currency: eb.selectFrom('stores').select('currency').where('id', '=', storeId),
        total: storedUnits(order.totalUnits),
        created_at: createdAt,
      }))
      .returning(['id', 'currency'])
      .executeTakeFirstOrThrow();
    const orderId = Number(id);
    const lines = order.lines.map((line, lineNo) => ({
      store_id: storeId,
      order_id: orderId,
      line_no: lineNo,
      sku: line.sku,
      quantity: line.quantity,
      product_id: line.productId,
      variation_id: line.variationId,
      unit_price: storedUnits(line.unitPriceUnits),
      line_total: storedUnits(line.lineTotalUnits),
      source: line.source,
      trade_price_id: line.tradePriceId,
      price_list_id: line.priceListId,
      price_list_price_id: line.priceListPriceId,
    }));
    if (lines.length > 0) await this.db.insertInto('order_lines').values(lines).execute();
    return {
      id: orderId,
      customerId: order.customerId,
      status: order.status,
      currency,
      lines: lines.map(toOrderLine),
      total: amountOf(order.totalUnits),
      createdAt,
    };
  }

  async list(storeId: number, filter: OrderFilter, page: Page): Promise<Order[]> {
    const rows = await this.filtered(storeId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return this.withLines(storeId, rows);
  }

  async count(storeId: number, filter: OrderFilter): Promise<number> {
    const row = await this.filtered(storeId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<Order | undefined> {
    const row = await this.db.selectFrom('orders').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    if (row === undefined) return undefined;
    const [order] = await this.withLines(storeId, [row]);
    return order;
  }

  async inactiveProductIds(storeId: number, productIds: readonly number[]): Promise<Set<number>> {
    if (productIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('products')
      .select('id')
      .where('store_id', '=', storeId)
      .where('id', 'in', [...productIds])
      .where('active', '=', toFlag(false))
      .execute();
    return new Set(rows.map((row) => Number(row.id)));
  }

  /** The lines of every order of the page in one query. */
  private async withLines(storeId: number, rows: readonly Selectable<OrdersTable>[]): Promise<Order[]> {
    if (rows.length === 0) return [];
    const lineRows = await this.db
      .selectFrom('order_lines')
      .selectAll()
      .where('store_id', '=', storeId)
      .where(
        'order_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('order_id')
      .orderBy('line_no')
      .execute();
    const linesByOrder = new Map<number, OrderLine[]>();
    for (const line of lineRows) {
      const orderId = Number(line.order_id);
      linesByOrder.set(orderId, [...(linesByOrder.get(orderId) ?? []), toOrderLine(line)]);
    }
    return rows.map((row) => ({
      id: Number(row.id),
      customerId: Number(row.customer_id),
      // The only status there is.
      status: 'placed',
      currency: row.currency,
      lines: linesByOrder.get(Number(row.id)) ?? [],
      total: amountOf(row.total),
      createdAt: row.created_at,
    }));
  }

  private filtered(storeId: number, filter: OrderFilter): SelectQueryBuilder<Tables, 'orders', object> {
    let query = this.db.selectFrom('orders').where('store_id', '=', storeId);
    if (filter.customerId !== undefined) query = query.where('customer_id', '=', filter.customerId);
    return query;
  }
}

function toOrderLine(row: Omit<Selectable<OrderLinesTable>, 'store_id' | 'order_id' | 'line_no'>): OrderLine {
  return {
    sku: row.sku,
    quantity: Number(row.quantity),
    productId: Number(row.product_id),
    variationId: row.variation_id === null ? null : Number(row.variation_id),
    unitPrice: amountOf(row.unit_price),
    lineTotal: amountOf(row.line_total),
    source: row.source === null ? null : (row.source as PriceSource),
    tradePriceId: nullableId(row.trade_price_id),
    priceListId: nullableId(row.price_list_id),
    priceListPriceId: nullableId(row.price_list_price_id),
  };
}

function nullableId(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

/** Units as the driver's integer; the order's rules keep them below 10^15, well inside 2^53. */
function storedUnits(units: bigint): number {
  const stored = Number(units);
  if (!Number.isSafeInteger(stored)) throw new Error(`amount of ${units} ten-thousandths cannot be stored exactly`);
  return stored;
}
