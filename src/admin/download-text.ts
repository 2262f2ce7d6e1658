import type { PriceListPrice } from '../contract/price-lists.js';
import type { TradePrice } from '../contract/trade-prices.js';
import { neutraliseCell } from '../text/csv-cells.js';

/** The long format `POST /v1/imports` reads: a downloaded customer's file imports back as it was. */
export const TRADE_PRICE_HEADER = ['customer_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until'] as const;
/** A price list's entries: the same columns, without the customer. */
export const PRICE_LIST_HEADER = ['sku', 'price', 'min_quantity', 'valid_from', 'valid_until'] as const;

type Cell = string | number | null;

/**
 * One CSV record: a field with a comma, quote or line break is quoted, quotes doubled; a field a
 * spreadsheet would run as a formula (`=…`, `+…`, `-…`, `@…`) gets a quote in front, which the
 * import takes off again (src/text/csv-cells.ts, shared with the server and the CLI).
 */
export function csvRecord(cells: readonly Cell[]): string {
  return cells
    .map((cell) => {
      const text = neutraliseCell(cell === null ? '' : String(cell));
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',');
}

export function tradePricesCsv(records: readonly Pick<TradePrice, 'customerId' | 'sku' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil'>[]): string {
  return [TRADE_PRICE_HEADER, ...records.map((record) => [record.customerId, record.sku, record.price, record.minQuantity, record.validFrom, record.validUntil])]
    .map(csvRecord)
    .join('\n')
    .concat('\n');
}

export function priceListCsv(entries: readonly Pick<PriceListPrice, 'sku' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil'>[]): string {
  return [PRICE_LIST_HEADER, ...entries.map((entry) => [entry.sku, entry.price, entry.minQuantity, entry.validFrom, entry.validUntil])]
    .map(csvRecord)
    .join('\n')
    .concat('\n');
}

/** Hands `text` to the browser as a file download (built here: nothing is fetched for it). */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
