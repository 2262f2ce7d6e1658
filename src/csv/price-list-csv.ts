import type { PriceListPrice } from '../contract/price-lists.js';
import { csvText } from './csv-text.js';
import { priceText } from './price-text.js';

/**
 * A price list's entries as a file (docs/pricing.md, "Importing a list's entries"): the columns
 * of the long format (trade-prices-csv.ts) without the customer, then the entry's own quantity
 * rule (three empty cells: none). `POST /v1/price-lists/{id}/prices/import` takes it back.
 */
export const PRICE_LIST_COLUMNS = [
  'sku',
  'price',
  'min_quantity',
  'valid_from',
  'valid_until',
  'quantity_minimum',
  'quantity_maximum',
  'quantity_increment',
] as const;

export type PriceListCsvEntry = Pick<PriceListPrice, 'sku' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil'> &
  Partial<Pick<PriceListPrice, 'quantityRule'>>;

/** A price list's entries as a file: the header, then a row per entry in the order given. */
export function priceListCsv(entries: readonly PriceListCsvEntry[]): string {
  return csvText([
    PRICE_LIST_COLUMNS,
    ...entries.map((entry) => {
      const rule = entry.quantityRule ?? null;
      return [
        entry.sku,
        priceText(entry.price),
        String(entry.minQuantity),
        entry.validFrom ?? '',
        entry.validUntil ?? '',
        rule === null ? '' : String(rule.minimum),
        rule?.maximum === null || rule === null ? '' : String(rule.maximum),
        rule === null ? '' : String(rule.increment),
      ];
    }),
  ]);
}
