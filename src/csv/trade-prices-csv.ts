import type { TradePrice } from '../contract/trade-prices.js';
import { csvText } from './csv-text.js';
import { priceText } from './price-text.js';

/**
 * The long format of trade prices (docs/imports.md), one price a row: what `POST /v1/imports`
 * reads, `pricebook prices export` writes and the admin page downloads, so a written file
 * imports back as it was. The import needs the first three columns; the others may be left out.
 */
export const LONG_COLUMNS = ['customer_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until'] as const;

export type LongPrice = Pick<TradePrice, 'customerId' | 'sku' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil'>;

/** The fields of a price's row, all six columns; no validity bound is an empty cell. */
export function longRow(price: LongPrice): string[] {
  return [String(price.customerId), price.sku, priceText(price.price), String(price.minQuantity), price.validFrom ?? '', price.validUntil ?? ''];
}

/** A whole long-format file: the header, then a row per price in the order given. */
export function tradePricesCsv(prices: readonly LongPrice[]): string {
  return csvText([LONG_COLUMNS, ...prices.map(longRow)]);
}
