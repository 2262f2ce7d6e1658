import { type ImportError, type PricedSkuInput, type Pricebook, PricebookError, type ReplaceTradePricesResult } from '@pricebook/client';
import { malformedOf } from '../../csv/csv-record-reader.js';
import { readCsvFile } from '../../csv/read-csv-file.js';
import { priceText } from '../../csv/price-text.js';
import { type CsvPrice, readHeader, readRow } from '../../modules/imports/csv-format.js';
import { escapeControlCharacters } from '../../text/control-characters.js';
import { CatalogLookup } from './catalog-lookup.js';
import { type DelimiterName, readInputFile } from './input-file.js';
import { counted } from './plural.js';
import { FieldNames } from './rejected-rows.js';
import { type CommandOutput, CommandFailed } from './import-command.js';
import { ProgressReporter } from './progress-reporter.js';
import { textTable } from './text-table.js';

/** Progress shows only for diffs that take longer than this (milliseconds). */
const QUIET_MS = 1000;
/** Prices one replace request takes (the API's limit). */
const MAX_REPLACE_PRICES = 10_000;

interface CustomerPrices {
  customerId: number;
  /** How the file names the customer: its id, or `id (e-mail)` for a matrix column named by address. */
  label: string;
  rows: CsvPrice[];
  inputs: PricedSkuInput[];
}

/**
 * `pricebook prices diff FILE.csv`: what `pricebook prices import --replace FILE.csv` would
 * change, customer by customer, without changing anything. The file is read here with the
 * import's own format rules; its customers (e-mail columns) and SKUs are looked up over the API;
 * then each customer's prices go to a dry-run replace (`scope: customer`), paced. Prints a table
 * per customer and a total on stdout; a file with problems prints them instead and fails.
 */
export async function diffPriceFile(client: Pricebook, file: string, output: CommandOutput, delimiter?: DelimiterName): Promise<void> {
  const { prices, problems, header } = await readPrices(readInputFile(file, delimiter).bytes);
  // Every problem is looked for, as the import does: rows, then lookups, then each customer's dry run.
  const customers = await groupByCustomer(new CatalogLookup(client), prices, problems);
  const results: Array<{ customer: CustomerPrices; result: ReplaceTradePricesResult }> = [];
  const progress = new ProgressReporter(output.stderr, 'diff', Date.now, QUIET_MS);
  try {
    for (const [done, customer] of customers.entries()) {
      progress.update('comparing customers', done, customers.length);
      const result = await dryRun(client, customer, problems);
      if (result !== undefined) results.push({ customer, result });
    }
    progress.update('comparing customers', customers.length, customers.length);
    progress.finish();
  } finally {
    progress.stop();
  }
  if (problems.length > 0) {
    const sorted = [...problems].sort((a, b) => a.row - b.row);
    const names = new FieldNames(header);
    output.stdout.write(
      textTable(
        ['row', 'column', 'problem'],
        sorted.map((problem) => [String(problem.row), names.of(problem.field) ?? '', problem.message]),
      ),
    );
    const rows = new Set(problems.map((problem) => problem.row)).size;
    throw new CommandFailed(`${file} has ${counted(problems.length, 'problem')} in ${counted(rows, 'row')}; an import of it would change nothing`);
  }

  const total = { changed: 0, created: 0, deleted: 0, unchanged: 0 };
  for (const { customer, result } of results) {
    const changes = changesOf(result);
    total.changed += changes.changed.length;
    total.created += changes.created.length;
    total.deleted += changes.deleted.length;
    total.unchanged += result.unchanged;
    output.stdout.write(customerTable(customer, changes, result.unchanged));
  }
  output.stdout.write(`${counted(results.length, 'customer')}: ${countsText(total)}\n`);
}

/**
 * Every price of the file and its header, or the problems of its rows (numbered as the API numbers them), found
 * as the import finds them: the same reader, then the header (whose problems end the reading),
 * then each row; a file that stops being CSV has the rows before it read, then that problem.
 */
async function readPrices(bytes: Buffer): Promise<{ prices: CsvPrice[]; problems: ImportError[]; header: string[] | undefined }> {
  const { records, malformed } = await readCsvFile(bytes);
  const stopped: ImportError[] = malformed === undefined ? [] : [{ row: malformed.row, field: null, message: malformed.message }];
  if (records.length === 0)
    return { prices: [], problems: malformed === undefined ? [{ row: 1, field: null, message: 'The file has no header' }] : stopped, header: undefined };
  const cutHeader = malformedOf(records[0]!);
  if (cutHeader !== undefined) return { prices: [], problems: [{ row: 1, field: null, message: cutHeader.message }], header: undefined };
  const header = readHeader(records[0]!);
  if ('errors' in header) return { prices: [], problems: header.errors, header: records[0] };
  const prices: CsvPrice[] = [];
  const problems: ImportError[] = [];
  records.slice(1).forEach((record, index) => {
    const cut = malformedOf(record);
    if (cut !== undefined) {
      problems.push({ row: index + 2, field: null, message: cut.message });
      return;
    }
    const read = readRow(header.layout, record, index + 2);
    prices.push(...read.prices);
    problems.push(...read.errors);
  });
  problems.push(...stopped);
  if (records.length < 2 && problems.length === 0) problems.push({ row: 1, field: null, message: 'The file has a header and no rows' });
  return { prices, problems, header: records[0] };
}

/** The file's prices by customer (ascending id), customers and SKUs looked up; unknown ones become problems. */
async function groupByCustomer(lookup: CatalogLookup, prices: readonly CsvPrice[], problems: ImportError[]): Promise<CustomerPrices[]> {
  const emails = prices.flatMap((price) => ('email' in price.customer ? [price.customer.email] : []));
  const customerOfEmail = await lookup.customerIds(emails);
  const productOfSku = await lookup.productIds(prices.map((price) => price.sku));
  const customers = new Map<number, CustomerPrices>();
  // A matrix row gives one price a filled cell, all of one SKU: an unknown one is said once a row, as the import says it.
  const rowsOfUnknownSku = new Set<number>();
  for (const price of prices) {
    const customerId = 'id' in price.customer ? price.customer.id : customerOfEmail.get(price.customer.email);
    const productId = productOfSku.get(price.sku);
    if (customerId === undefined)
      problems.push({ row: price.row, field: price.customerField, message: `Customer '${price.customerField}' does not exist in this store` });
    if (productId === undefined && !rowsOfUnknownSku.has(price.row)) {
      rowsOfUnknownSku.add(price.row);
      problems.push({ row: price.row, field: 'sku', message: `SKU '${price.sku}' does not exist in this store` });
    }
    if (customerId === undefined || productId === undefined) continue;
    const label = 'email' in price.customer ? `${customerId} (${price.customer.email})` : String(customerId);
    const entry = customers.get(customerId) ?? { customerId, label, rows: [], inputs: [] };
    entry.rows.push(price);
    entry.inputs.push({
      productId,
      sku: price.sku,
      price: price.price,
      minQuantity: price.minQuantity,
      validFrom: price.validFrom,
      validUntil: price.validUntil,
    });
    customers.set(customerId, entry);
  }
  return [...customers.values()].sort((a, b) => a.customerId - b.customerId);
}

/** One customer's dry run; what the API refuses becomes problems on the file's rows. */
async function dryRun(client: Pricebook, customer: CustomerPrices, problems: ImportError[]): Promise<ReplaceTradePricesResult | undefined> {
  const first = customer.rows[0]!;
  if (customer.inputs.length > MAX_REPLACE_PRICES) {
    const message = `has ${customer.inputs.length} prices for customer ${customer.label}: more than a diff compares (${MAX_REPLACE_PRICES}); use pricebook prices import --replace --dry-run`;
    problems.push({ row: first.row, field: first.customerField, message });
    return undefined;
  }
  try {
    return await client.replaceCustomerPrices(customer.customerId, customer.inputs, { scope: 'customer', dryRun: true });
  } catch (error) {
    if (!(error instanceof PricebookError) || error.status !== 422) throw error;
    for (const problem of error.errors ?? [{ field: null, message: error.message }]) {
      const row = problem.index === undefined ? first : customer.rows[problem.index];
      if (row === undefined) continue;
      problems.push({ row: row.row, field: problem.index === undefined ? row.customerField : columnOf(problem.field, row), message: problem.message });
    }
    return undefined;
  }
}

/** The file's column for a field of a replace item. */
function columnOf(field: string | null, row: CsvPrice): string | null {
  switch (field) {
    case 'price':
      return row.customerField === 'customer_id' ? 'price' : row.customerField;
    case 'productId':
    case 'sku':
      return 'sku';
    case 'minQuantity':
      return 'min_quantity';
    case 'validFrom':
      return 'valid_from';
    case 'validUntil':
      return 'valid_until';
    default:
      return field;
  }
}

type ChangedPrice = ReplaceTradePricesResult['created'][number];
type DroppedPrice = ReplaceTradePricesResult['deleted'][number];

interface CustomerChanges {
  /** A price dropped and one created with the same SKU, quantity break and window: its price changes. */
  changed: Array<{ from: DroppedPrice; to: ChangedPrice }>;
  created: ChangedPrice[];
  deleted: DroppedPrice[];
}

/** What a dry-run replace creates and deletes, a deleted and a created price of the same SKU, break and window paired as one change. */
function changesOf(result: ReplaceTradePricesResult): CustomerChanges {
  const slot = (price: ChangedPrice | DroppedPrice) => JSON.stringify([price.sku, price.minQuantity, price.validFrom, price.validUntil]);
  const deletedBySlot = new Map<string, DroppedPrice[]>();
  for (const price of result.deleted) deletedBySlot.set(slot(price), [...(deletedBySlot.get(slot(price)) ?? []), price]);
  const changes: CustomerChanges = { changed: [], created: [], deleted: [] };
  const paired = new Set<DroppedPrice>();
  for (const price of result.created) {
    const from = deletedBySlot.get(slot(price))?.find((candidate) => !paired.has(candidate));
    if (from === undefined) {
      changes.created.push(price);
      continue;
    }
    paired.add(from);
    changes.changed.push({ from, to: price });
  }
  changes.deleted = result.deleted.filter((price) => !paired.has(price));
  return changes;
}

function countsText(counts: { changed: number; created: number; deleted: number; unchanged: number }): string {
  return `${counts.changed} to change, ${counts.created} to create, ${counts.deleted} to delete, ${counts.unchanged} unchanged`;
}

function customerTable(customer: CustomerPrices, changes: CustomerChanges, unchanged: number): string {
  // The label quotes the file's header (an e-mail column); the table escapes its own cells.
  const label = escapeControlCharacters(customer.label);
  if (changes.changed.length + changes.created.length + changes.deleted.length === 0) return `customer ${label}: no changes, ${unchanged} unchanged\n\n`;
  const counts = countsText({ changed: changes.changed.length, created: changes.created.length, deleted: changes.deleted.length, unchanged });
  const line = (change: string, price: ChangedPrice | DroppedPrice, priceCell = priceText(price.price)) => [
    change,
    price.sku,
    priceCell,
    String(price.minQuantity),
    price.validFrom ?? '',
    price.validUntil ?? '',
  ];
  const rows = [
    ...changes.changed.map(({ from, to }) => line('change', to, `${priceText(from.price)} → ${priceText(to.price)}`)),
    ...changes.created.map((price) => line('create', price)),
    ...changes.deleted.map((price) => line('delete', price)),
  ];
  return `customer ${label}: ${counts}\n${textTable(['change', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until'], rows, '  ')}\n`;
}
