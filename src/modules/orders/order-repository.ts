import type { Order } from '../../contract/orders.js';
import type { PriceSource } from '../../contract/trade-prices.js';
import type { Page } from '../shared/page.js';

export interface OrderFilter {
  customerId?: number;
}

/** A priced line, amounts in integer ten-thousandths. */
export interface NewOrderLine {
  sku: string;
  quantity: number;
  productId: number;
  variationId: number | null;
  unitPriceUnits: bigint;
  lineTotalUnits: bigint;
  /** How the resolution rule priced it. */
  source: PriceSource;
  tradePriceId: number | null;
  priceListId: number | null;
  priceListPriceId: number | null;
}

/** An order as placed, amounts in integer ten-thousandths (each below 10^15). */
export interface NewOrder {
  customerId: number;
  status: Order['status'];
  totalUnits: bigint;
  lines: readonly NewOrderLine[];
}

export interface OrderRepository {
  /** The order, with the store's currency now (kept, whatever the store sets later), then all its lines in one multi-row insert. */
  insert(storeId: number, order: NewOrder, createdAt: string): Promise<Order>;
  /** A page of orders with their lines: two queries however long the page. */
  list(storeId: number, filter: OrderFilter, page: Page): Promise<Order[]>;
  count(storeId: number, filter: OrderFilter): Promise<number>;
  find(storeId: number, id: number): Promise<Order | undefined>;
  /** Those of these products of the store that are inactive (cannot be ordered). */
  inactiveProductIds(storeId: number, productIds: readonly number[]): Promise<Set<number>>;
}
