import { once } from 'node:events';
import { PAGE_SIZE, type Pricebook, type TradePrice } from '@pricebook/client';
import { csvText } from '../../csv/csv-text.js';
import { priceText } from '../../csv/price-text.js';
import { LONG_COLUMNS, longRow } from '../../csv/trade-prices-csv.js';
import { UsageError } from '../usage-error.js';
import { ProgressReporter, type ProgressStream } from './progress-reporter.js';

export type ExportFormat = 'long' | 'matrix';

export interface ExportOptions {
  customerId?: number;
  format: ExportFormat;
  /** The sink is a terminal: cells' control characters are written out (`\x1b`), so the file shown is safe to look at (not byte-exact). */
  escapeControls?: boolean;
}

type ExportedPrice = Pick<TradePrice, 'customerId' | 'sku' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil'>;

const FIELDS = 'customerId,sku,price,minQuantity,validFrom,validUntil';
/** Progress shows only for exports that take longer than this (milliseconds). */
const QUIET_MS = 1000;
/** Long rows written to the sink at once. */
const WRITE_BATCH = 100;

/**
 * `pricebook prices export [--customer ID] [--format long|matrix]`: the store's trade prices (or
 * one customer's) as a CSV file that `pricebook prices import --replace` takes back unchanged.
 *
 * - long: `customer_id,sku,price,min_quantity,valid_from,valid_until`, every record in id order,
 *   streamed page by page.
 * - matrix: `sku,<customer id>,…`, customer ids ascending, SKUs in ascending code-unit order,
 *   one price per cell (empty: none). Read whole before the first byte is written, and refused
 *   (a UsageError, nothing written) when a price has a quantity break or a window, or a customer
 *   has two prices for one SKU: the matrix cannot say those.
 *
 * A cell a spreadsheet would run as a formula (a SKU `=HYPERLINK(…)`) is written with a quote in
 * front (`'=HYPERLINK(…)`), which the import takes off again (src/csv/csv-text.ts). Written to
 * a terminal (`escapeControls`), control characters in cells are written out (`\x1b`), never sent raw.
 */
export async function exportPrices(client: Pricebook, options: ExportOptions, sink: NodeJS.WritableStream, progressStream: ProgressStream): Promise<void> {
  const filter = options.customerId !== undefined ? { customerId: options.customerId } : {};
  const total = await client.tradePrices.count(filter);
  const progress = new ProgressReporter(progressStream, 'export', Date.now, QUIET_MS);
  try {
    // With `fields`, each record carries only those: what a row needs, in smaller pages.
    await writeCsv(counted(client.tradePrices.iterate({ ...filter, fields: FIELDS }), (read) => progress.update('reading prices', read, total)), options, sink);
  } finally {
    progress.stop();
  }
}

/** `prices`, telling `onPage` how many were read after each page. */
async function* counted(prices: AsyncIterable<ExportedPrice>, onPage: (read: number) => void): AsyncGenerator<ExportedPrice> {
  let read = 0;
  for await (const price of prices) {
    yield price;
    read += 1;
    if (read % PAGE_SIZE === 0) onPage(read);
  }
}

async function writeCsv(prices: AsyncIterable<ExportedPrice>, options: ExportOptions, sink: NodeJS.WritableStream): Promise<void> {
  const csv = (records: ReadonlyArray<readonly string[]>) => csvText(records, { escapeControls: options.escapeControls === true });
  if (options.format === 'long') {
    // The header goes out with the first rows: a refused first request writes nothing.
    let batch: string[][] = [[...LONG_COLUMNS]];
    for await (const price of prices) {
      batch.push(longRow(price));
      if (batch.length >= WRITE_BATCH) {
        await write(sink, csv(batch));
        batch = [];
      }
    }
    if (batch.length > 0) await write(sink, csv(batch));
    return;
  }
  await write(sink, csv(await matrixRecords(prices, options.customerId)));
}

async function matrixRecords(prices: AsyncIterable<ExportedPrice>, onlyCustomer: number | undefined): Promise<string[][]> {
  const bySku = new Map<string, Map<number, number>>();
  const customers = new Set<number>(onlyCustomer === undefined ? [] : [onlyCustomer]);
  for await (const price of prices) {
    const where = `customer ${price.customerId}'s price for SKU '${price.sku}'`;
    if (price.minQuantity !== 1) throw new UsageError(`the matrix cannot hold ${where}: it has a quantity break (min_quantity ${price.minQuantity}); use --format long`);
    if (price.validFrom !== null || price.validUntil !== null) throw new UsageError(`the matrix cannot hold ${where}: it has a validity window; use --format long`);
    const cells = bySku.get(price.sku) ?? new Map<number, number>();
    if (cells.has(price.customerId)) throw new UsageError(`the matrix cannot hold customer ${price.customerId}'s prices for SKU '${price.sku}': there are two or more; use --format long`);
    cells.set(price.customerId, price.price);
    bySku.set(price.sku, cells);
    customers.add(price.customerId);
  }
  const columns = [...customers].sort((a, b) => a - b);
  const rows = [...bySku.keys()].sort().map((sku) => {
    const cells = bySku.get(sku)!;
    return [sku, ...columns.map((customerId) => (cells.has(customerId) ? priceText(cells.get(customerId)!) : ''))];
  });
  return [['sku', ...columns.map(String)], ...rows];
}

async function write(sink: NodeJS.WritableStream, text: string): Promise<void> {
  // The sink (stdout into a pipe or a file) may push back: wait until it drained.
  if (!sink.write(text)) await once(sink, 'drain');
}
