import type { Generated } from 'kysely';

/* The priced records: trade prices, price lists and their entries. */

/** Trade prices: one customer, one SKU, one price. Never de-duplicated; the newest id wins. */
export interface TradePricesTable {
  id: Generated<number>;
  store_id: number;
  customer_id: number;
  product_id: number;
  sku: string;
  /** Ten-thousandths of the currency unit. */
  price: number;
  /** Applies to lines of at least this many units. */
  min_quantity: Generated<number>;
  /** Canonical ISO 8601 UTC (see `modules/shared/timestamps.ts`); null: no bound. */
  valid_from: string | null;
  valid_until: string | null;
  created_at: string;
}

/** A price list shared by customers: fixed (entries per SKU) or a percentage off the catalog. */
export interface PriceListsTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  /** `fixed` or `percentage`. */
  kind: string;
  /** Ten-thousandths of a percent; null for a fixed list. */
  percentage: number | null;
  /** `first` or `lowest` (migration 021). */
  policy: Generated<string>;
  /** A percentage list's own rounding: an increment in ten-thousandths and a mode; both null: the store's (migration 022). */
  rounding_increment: number | null;
  rounding_mode: string | null;
  created_at: string;
}

/** An entry of a fixed price list: shaped like a trade price, without the customer. */
export interface PriceListPricesTable {
  id: Generated<number>;
  store_id: number;
  price_list_id: number;
  product_id: number;
  sku: string;
  /** Ten-thousandths of the currency unit. */
  price: number;
  min_quantity: number;
  valid_from: string | null;
  valid_until: string | null;
  /** The entry's own quantity rule, all three null when none (the SKU's applies; migration 025). */
  quantity_minimum: number | null;
  quantity_maximum: number | null;
  quantity_increment: number | null;
  created_at: string;
}

/** Prices and price lists: this area's tables, by name (composed into `Tables`). */
export interface PriceTables {
  trade_prices: TradePricesTable;
  price_lists: PriceListsTable;
  price_list_prices: PriceListPricesTable;
}
