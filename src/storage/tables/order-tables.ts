import type { Generated } from 'kysely';

/* Orders and their lines. */

/**
 * A placed order. Customer, product and variation ids are a record of what was ordered, not
 * references: the order outlives later changes to them.
 */
export interface OrdersTable {
  id: Generated<number>;
  store_id: number;
  customer_id: number;
  status: string;
  /** The store's currency (ISO 4217) when it was placed (migration 026). */
  currency: Generated<string>;
  /** Ten-thousandths of the currency unit; below 10^15. */
  total: number;
  created_at: string;
}

/** The lines of an order, priced when it was placed. */
export interface OrderLinesTable {
  store_id: number;
  order_id: number;
  /** Position in the request, from 0. */
  line_no: number;
  sku: string;
  quantity: number;
  product_id: number;
  variation_id: number | null;
  /** Ten-thousandths. */
  unit_price: number;
  /** Ten-thousandths; unit_price × quantity, below 10^15. */
  line_total: number;
  /** `trade`, `price_list`, `variation` or `product`; null for lines placed before sources were kept. */
  source: string | null;
  trade_price_id: number | null;
  price_list_id: number | null;
  price_list_price_id: number | null;
}

/** Orders: this area's tables, by name (composed into `Tables`). */
export interface OrderTables {
  orders: OrdersTable;
  order_lines: OrderLinesTable;
}
