import { once } from 'node:events';
import { PAGE_SIZE, type Pricebook, PricebookError, type TradePrice } from '@pricebook/client';
import { csvText } from '../../csv/csv-text.js';
import { priceText } from '../../csv/price-text.js';
import { LONG_COLUMNS, longRow } from '../../csv/trade-prices-csv.js';
import { UsageError } from '../usage-error.js';
import { CommandFailed } from './import-command.js';
import { counted } from './plural.js';
import { ProgressReporter, type ProgressStream } from './progress-reporter.js';
import { escapeControlCharacters } from '../../text/control-characters.js';

export type ExportFormat = 'long' | 'matrix';

export interface ExportOptions {
  /** Only these customers' prices (each checked first: it exists and is a trade customer). */
  customerIds?: readonly number[];
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
/** Customers one `--customer` list may name: each is one request to check, and one walk of its prices. */
export const MAX_EXPORT_CUSTOMERS = 1000;
/** Prices a matrix leaves out that are listed on stderr, at most (the count says how many more). */
const LISTED_LEFT_OUT = 20;

/**
 * `pricebook prices export [--customer ID[,ID…]] [--format long|matrix]`: the store's trade
 * prices (or some customers') as a CSV file that `pricebook prices import --replace` takes back.
 *
 * - long: `customer_id,sku,price,min_quantity,valid_from,valid_until`, every record in id order
 *   (with `--customer`: customer by customer, ascending, each in id order), streamed page by page.
 * - matrix: `sku,<customer id>,…`, customer ids ascending, SKUs in ascending code-unit order,
 *   one price per cell (empty: none). Read whole before the first byte is written. A customer's
 *   prices for a SKU that a cell cannot say (a quantity break, a validity window, two prices)
 *   are left out of the file, all of them, and listed on stderr; the command then fails (exit 1)
 *   once the file is written, because importing it with `--replace` would delete them.
 *
 * A customer named with `--customer` that does not exist, or is not a trade customer, is a
 * UsageError (exit 2, nothing written). A cell a spreadsheet would run as a formula
 * (`=HYPERLINK(…)`) is written with a quote in front, which the import takes off again
 * (src/csv/csv-text.ts). Written to a terminal (`escapeControls`), control characters in cells
 * are written out (`\x1b`), never sent raw.
 */
export async function exportPrices(client: Pricebook, options: ExportOptions, sink: NodeJS.WritableStream, progressStream: ProgressStream): Promise<void> {
  const customerIds = options.customerIds === undefined ? undefined : [...new Set(options.customerIds)].sort((a, b) => a - b);
  if (customerIds !== undefined) await checkCustomers(client, customerIds);
  const filters = customerIds === undefined ? [{}] : customerIds.map((customerId) => ({ customerId }));
  let total = 0;
  for (const filter of filters) total += await client.tradePrices.count(filter);
  const progress = new ProgressReporter(progressStream, 'export', Date.now, QUIET_MS);
  let leftOut: LeftOut[];
  try {
    // With `fields`, each record carries only those: what a row needs, in smaller pages.
    async function* every(): AsyncGenerator<ExportedPrice> {
      for (const filter of filters) yield* client.tradePrices.iterate({ ...filter, fields: FIELDS });
    }
    leftOut = await writeCsv(
      countedAsRead(every(), (read) => progress.update('reading prices', read, total)),
      { ...options, ...(customerIds !== undefined && { customerIds }) },
      sink,
    );
    progress.finish();
  } finally {
    progress.stop();
  }
  if (leftOut.length > 0) {
    for (const { customerId, sku, reason } of leftOut.slice(0, LISTED_LEFT_OUT))
      progressStream.write(`  customer ${customerId}, SKU '${escapeControlCharacters(sku)}': ${reason}\n`);
    if (leftOut.length > LISTED_LEFT_OUT) progressStream.write(`  … and ${leftOut.length - LISTED_LEFT_OUT} more\n`);
    const prices = leftOut.reduce((sum, entry) => sum + entry.prices, 0);
    const customers = new Set(leftOut.map((entry) => entry.customerId)).size;
    throw new CommandFailed(
      `the matrix leaves out ${counted(prices, 'price')} of ${counted(customers, 'customer')} (listed above): a cell holds one price from 1 unit, always valid. ` +
        'Importing this file with --replace would delete them; use --format long for every price',
    );
  }
}

/** Each customer exists in the store and is a trade customer; a token without catalog:read cannot look, and the export goes on. */
async function checkCustomers(client: Pricebook, customerIds: readonly number[]): Promise<void> {
  if (customerIds.length > MAX_EXPORT_CUSTOMERS)
    throw new UsageError(`--customer names ${customerIds.length} customers; an export takes at most ${MAX_EXPORT_CUSTOMERS} (or none: the whole store)`);
  for (const customerId of customerIds) {
    try {
      const customer = await client.customers.get(customerId, { fields: 'id,trade' });
      if (!customer.trade) throw new UsageError(`customer ${customerId} is not a trade customer: it has no trade prices to export`);
    } catch (error) {
      if (error instanceof PricebookError && error.status === 404) throw new UsageError(`customer ${customerId} does not exist in this store`);
      if (error instanceof PricebookError && error.status === 403) return;
      throw error;
    }
  }
}

/** `prices`, telling `onPage` how many were read after each page. */
async function* countedAsRead(prices: AsyncIterable<ExportedPrice>, onPage: (read: number) => void): AsyncGenerator<ExportedPrice> {
  let read = 0;
  for await (const price of prices) {
    yield price;
    read += 1;
    if (read % PAGE_SIZE === 0) onPage(read);
  }
  onPage(read);
}

/** Writes the file; answers what a matrix left out (nothing, for the long format). */
async function writeCsv(prices: AsyncIterable<ExportedPrice>, options: ExportOptions, sink: NodeJS.WritableStream): Promise<LeftOut[]> {
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
    return [];
  }
  const matrix = await matrixRecords(prices, options.customerIds ?? []);
  await write(sink, csv(matrix.records));
  return matrix.leftOut;
}

/** A customer's prices for one SKU that a matrix cell cannot say. */
interface LeftOut {
  customerId: number;
  sku: string;
  prices: number;
  reason: string;
}

async function matrixRecords(prices: AsyncIterable<ExportedPrice>, namedCustomers: readonly number[]): Promise<{ records: string[][]; leftOut: LeftOut[] }> {
  // Every price of a customer and SKU, then the ones a cell can hold.
  const bySku = new Map<string, Map<number, ExportedPrice[]>>();
  for await (const price of prices) {
    const cells = bySku.get(price.sku) ?? new Map<number, ExportedPrice[]>();
    cells.set(price.customerId, [...(cells.get(price.customerId) ?? []), price]);
    bySku.set(price.sku, cells);
  }
  const customers = new Set<number>(namedCustomers);
  const leftOut: LeftOut[] = [];
  const cellOf = new Map<string, Map<number, number>>();
  for (const [sku, cells] of bySku) {
    for (const [customerId, found] of cells) {
      const reason = whyNotACell(found);
      if (reason !== undefined) {
        leftOut.push({ customerId, sku, prices: found.length, reason });
        continue;
      }
      const row = cellOf.get(sku) ?? new Map<number, number>();
      row.set(customerId, found[0]!.price);
      cellOf.set(sku, row);
      customers.add(customerId);
    }
  }
  const columns = [...customers].sort((a, b) => a - b);
  const rows = [...cellOf.keys()].sort().map((sku) => {
    const cells = cellOf.get(sku)!;
    return [sku, ...columns.map((customerId) => (cells.has(customerId) ? priceText(cells.get(customerId)!) : ''))];
  });
  leftOut.sort((a, b) => a.customerId - b.customerId || (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
  return { records: [['sku', ...columns.map(String)], ...rows], leftOut };
}

function whyNotACell(prices: readonly ExportedPrice[]): string | undefined {
  const withBreak = prices.find((price) => price.minQuantity !== 1);
  if (withBreak !== undefined) return `a quantity break (min_quantity ${withBreak.minQuantity}); ${counted(prices.length, 'price')} left out`;
  if (prices.some((price) => price.validFrom !== null || price.validUntil !== null)) return `a validity window; ${counted(prices.length, 'price')} left out`;
  if (prices.length > 1) return `${prices.length} prices for one SKU; all left out`;
  return undefined;
}

async function write(sink: NodeJS.WritableStream, text: string): Promise<void> {
  // The sink (stdout into a pipe or a file) may push back: wait until it drained.
  if (!sink.write(text)) await once(sink, 'drain');
}
