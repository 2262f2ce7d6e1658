import { type ImportError, type PricedSkuInput, type Pricebook, PricebookError, type ReplaceTradePricesResult } from '@pricebook/client';
import { readCsvFile } from '../../csv/read-csv-file.js';
import { priceText } from '../../csv/price-text.js';
import { type CsvPrice, readHeader, readRow } from '../../modules/imports/csv-format.js';
import { escapeControlCharacters } from '../../text/control-characters.js';
import { CatalogLookup } from './catalog-lookup.js';
import { readInputFile } from './read-input-file.js';
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
export async function diffPriceFile(client: Pricebook, file: string, output: CommandOutput): Promise<void> {
  const { prices, problems } = await readPrices(readInputFile(file));
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
  } finally {
    progress.stop();
  }
  if (problems.length > 0) {
    const sorted = [...problems].sort((a, b) => a.row - b.row);
    output.stdout.write(textTable(['row', 'column', 'problem'], sorted.map((problem) => [String(problem.row), problem.field ?? '', problem.message])));
    throw new CommandFailed(`${file} has ${problems.length} problem${problems.length === 1 ? '' : 's'}; an import of it would change nothing`);
  }

  const total = { created: 0, deleted: 0, unchanged: 0 };
  for (const { customer, result } of results) {
    total.created += result.created.length;
    total.deleted += result.deleted.length;
    total.unchanged += result.unchanged;
    output.stdout.write(customerTable(customer, result));
  }
  output.stdout.write(`${results.length} customer${results.length === 1 ? '' : 's'}: ${total.created} to create, ${total.deleted} to delete, ${total.unchanged} unchanged\n`);
}

/**
 * Every price of the file, or the problems of its rows (numbered as the API numbers them), found
 * as the import finds them: the same reader, then the header (whose problems end the reading),
 * then each row; a file that stops being CSV has the rows before it read, then that problem.
 */
async function readPrices(bytes: Buffer): Promise<{ prices: CsvPrice[]; problems: ImportError[] }> {
  const { records, malformed } = await readCsvFile(bytes);
  const stopped: ImportError[] = malformed === undefined ? [] : [{ row: malformed.row, field: null, message: malformed.message }];
  if (records.length === 0) return { prices: [], problems: malformed === undefined ? [{ row: 1, field: null, message: 'The file has no header' }] : stopped };
  const header = readHeader(records[0]!);
  if ('errors' in header) return { prices: [], problems: header.errors };
  const prices: CsvPrice[] = [];
  const problems: ImportError[] = [];
  records.slice(1).forEach((record, index) => {
    const read = readRow(header.layout, record, index + 2);
    prices.push(...read.prices);
    problems.push(...read.errors);
  });
  problems.push(...stopped);
  if (records.length < 2 && problems.length === 0) problems.push({ row: 1, field: null, message: 'The file has a header and no rows' });
  return { prices, problems };
}

/** The file's prices by customer (ascending id), customers and SKUs looked up; unknown ones become problems. */
async function groupByCustomer(lookup: CatalogLookup, prices: readonly CsvPrice[], problems: ImportError[]): Promise<CustomerPrices[]> {
  const emails = prices.flatMap((price) => ('email' in price.customer ? [price.customer.email] : []));
  const customerOfEmail = await lookup.customerIds(emails);
  const productOfSku = await lookup.productIds(prices.map((price) => price.sku));
  const customers = new Map<number, CustomerPrices>();
  for (const price of prices) {
    const customerId = 'id' in price.customer ? price.customer.id : customerOfEmail.get(price.customer.email);
    const productId = productOfSku.get(price.sku);
    if (customerId === undefined) problems.push({ row: price.row, field: price.customerField, message: `Customer '${price.customerField}' does not exist in this store` });
    if (productId === undefined) problems.push({ row: price.row, field: 'sku', message: `SKU '${price.sku}' does not exist in this store` });
    if (customerId === undefined || productId === undefined) continue;
    const label = 'email' in price.customer ? `${customerId} (${price.customer.email})` : String(customerId);
    const entry = customers.get(customerId) ?? { customerId, label, rows: [], inputs: [] };
    entry.rows.push(price);
    entry.inputs.push({ productId, sku: price.sku, price: price.price, minQuantity: price.minQuantity, validFrom: price.validFrom, validUntil: price.validUntil });
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

function customerTable(customer: CustomerPrices, result: ReplaceTradePricesResult): string {
  const counts = `${result.created.length} to create, ${result.deleted.length} to delete, ${result.unchanged} unchanged`;
  // The label quotes the file's header (an e-mail column); the table escapes its own cells.
  const label = escapeControlCharacters(customer.label);
  if (result.created.length === 0 && result.deleted.length === 0) return `customer ${label}: no changes, ${result.unchanged} unchanged\n\n`;
  const line = (change: string, price: ReplaceTradePricesResult['deleted'][number] | ReplaceTradePricesResult['created'][number]) => [
    change,
    price.sku,
    priceText(price.price),
    String(price.minQuantity),
    price.validFrom ?? '',
    price.validUntil ?? '',
  ];
  const rows = [...result.created.map((price) => line('create', price)), ...result.deleted.map((price) => line('delete', price))];
  return `customer ${label}: ${counts}\n${textTable(['change', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until'], rows, '  ')}\n`;
}
