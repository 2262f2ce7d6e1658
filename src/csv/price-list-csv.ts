import type { PriceListPrice } from '../contract/price-lists.js';
import { csvText } from './csv-text.js';
import { priceText } from './price-text.js';

/** A price list's entries: the columns of the long format (trade-prices-csv.ts) without the customer. */
export const PRICE_LIST_COLUMNS = ['sku', 'price', 'min_quantity', 'valid_from', 'valid_until'] as const;

export type PriceListCsvEntry = Pick<PriceListPrice, 'sku' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil'>;

/** A price list's entries as a file: the header, then a row per entry in the order given. */
export function priceListCsv(entries: readonly PriceListCsvEntry[]): string {
  return csvText([PRICE_LIST_COLUMNS, ...entries.map((entry) => [entry.sku, priceText(entry.price), String(entry.minQuantity), entry.validFrom ?? '', entry.validUntil ?? ''])]);
}
