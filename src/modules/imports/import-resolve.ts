import type { ImportError } from '../../contract/imports.js';
import { clip } from '../../text/clip.js';
import { customerProblem } from '../pricing/trade-customer.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { CsvPrice } from './csv-format.js';
import type { ImportPacer } from './import-pacing.js';
import { LOOKUP_CHUNK } from './import-limits.js';
import type { StagedPrice } from './import-contents-repository.js';

/** Customers as the store has them, by id and by lower-cased e-mail address. */
export interface CustomerMaps {
  byId: Map<number, { id: number; trade: boolean }>;
  byEmail: Map<string, { id: number; trade: boolean }>;
}

/** A price of the file with its customer and product found: staged once it is given its place. */
export type ResolvedPrice = Omit<StagedPrice, 'position'>;

/** The customers `refs` name, looked up in the store a chunk at a time. */
export async function customersOf(repos: Repositories, storeId: number, refs: ReadonlyArray<CsvPrice['customer']>, pacer: ImportPacer): Promise<CustomerMaps> {
  const ids = [...new Set(refs.flatMap((ref) => ('id' in ref ? [ref.id] : [])))];
  const emails = [...new Set(refs.flatMap((ref) => ('email' in ref ? [ref.email.toLowerCase()] : [])))];
  const maps: CustomerMaps = { byId: new Map(), byEmail: new Map() };
  for (let start = 0; start < ids.length; start += LOOKUP_CHUNK) {
    for (const [id, customer] of await repos.customers.tradeFlags(storeId, ids.slice(start, start + LOOKUP_CHUNK))) maps.byId.set(id, customer);
    if (start + LOOKUP_CHUNK < ids.length) await pacer.pace();
  }
  for (let start = 0; start < emails.length; start += LOOKUP_CHUNK) {
    for (const [email, customer] of await repos.customers.tradeFlagsByEmail(storeId, emails.slice(start, start + LOOKUP_CHUNK)))
      maps.byEmail.set(email, customer);
    if (start + LOOKUP_CHUNK < emails.length) await pacer.pace();
  }
  return maps;
}

/**
 * The prices' customers (a matrix's, looked up once from its header: `matrixCustomers`) and
 * SKUs, looked up in the store: the prices whose customer is a trade customer and whose SKU
 * exists, and a problem for each that is not.
 */
export async function resolvePrices(
  repos: Repositories,
  storeId: number,
  prices: readonly CsvPrice[],
  matrixCustomers: CustomerMaps | undefined,
  pacer: ImportPacer,
): Promise<{ prices: ResolvedPrice[]; errors: ImportError[] }> {
  const customers =
    matrixCustomers ??
    (await customersOf(
      repos,
      storeId,
      prices.map((price) => price.customer),
      pacer,
    ));
  const skus = [...new Set(prices.map((price) => price.sku))];
  const owners = new Map<string, number>();
  for (let start = 0; start < skus.length; start += LOOKUP_CHUNK) {
    const references = await repos.tradePrices.findReferences(storeId, [], [], skus.slice(start, start + LOOKUP_CHUNK));
    for (const [sku, productId] of references.skuOwners) owners.set(sku, productId);
  }
  const errors: ImportError[] = [];
  const resolved: ResolvedPrice[] = [];
  // A matrix row gives one price a filled cell, all of one SKU: an unknown one is said once a row.
  const rowsOfUnknownSku = new Set<number>();
  for (const price of prices) {
    const customer = 'id' in price.customer ? customers.byId.get(price.customer.id) : customers.byEmail.get(price.customer.email.toLowerCase());
    const name = 'id' in price.customer ? `Customer ${price.customer.id}` : `Customer '${clip(price.customer.email, 64)}'`;
    const productId = owners.get(price.sku);
    const unfit = customerProblem(name, customer, { trade: true });
    if (unfit !== undefined) errors.push({ row: price.row, field: price.customerField, message: unfit });
    if (productId === undefined && !rowsOfUnknownSku.has(price.row)) {
      rowsOfUnknownSku.add(price.row);
      errors.push({ row: price.row, field: 'sku', message: `SKU '${clip(price.sku, 64)}' does not exist in this store` });
    }
    if (customer === undefined || !customer.trade || productId === undefined) continue;
    resolved.push({
      customerId: customer.id,
      productId,
      sku: price.sku,
      price: price.price,
      minQuantity: price.minQuantity,
      validFrom: price.validFrom,
      validUntil: price.validUntil,
    });
  }
  return { prices: resolved, errors };
}
