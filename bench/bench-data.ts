import { sql } from 'kysely';
import type { TradePriceInput } from '../src/contract/trade-prices.js';
import { systemClock } from '../src/modules/shared/clock.js';
import { toPriceUnits } from '../src/modules/shared/money.js';
import { CredentialService } from '../src/modules/stores/credential-service.js';
import type { Database } from '../src/storage/database.js';
import { KyselyUnitOfWork } from '../src/storage/kysely-unit-of-work.js';

/** Trade customers of the bench store; seeded prices are spread evenly over them. */
export const CUSTOMER_COUNT = 200;
/** Products, each with its own SKU `BENCH-<n>`. */
export const PRODUCT_COUNT = 200;
/** Items in one bulk-create request (the contract's maximum). */
export const BULK_ITEMS = 1000;
/** Distinct customers referenced by one bulk request: the validation looks up each. */
const CUSTOMERS_PER_BULK = 100;
/** Rows per multi-row insert when seeding: 6 bound parameters each, under both engines' limits. */
const SEED_ROWS_PER_INSERT = 1000;
/** Seed inserts committed together. */
const SEED_INSERTS_PER_TRANSACTION = 50;

export interface Catalog {
  storeId: number;
  /** Bearer token of an all-scopes credential. */
  token: string;
  customerIds: number[];
  productIds: number[];
}

/** A bulk create's item, without a quantity break or a window. */
export type PriceItem = Pick<TradePriceInput, 'customerId' | 'productId' | 'sku' | 'price'>;

/** One store with a credential, its trade customers and products (with their SKUs). */
export async function seedCatalog(database: Database): Promise<Catalog> {
  const credentials = new CredentialService(new KyselyUnitOfWork(database), systemClock);
  const store = await credentials.createStore('bench');
  const { token } = await credentials.issueKey(store.id);
  const createdAt = new Date().toISOString();
  return database.db.transaction().execute(async (trx) => {
    const customers = await trx
      .insertInto('customers')
      .values(
        Array.from({ length: CUSTOMER_COUNT }, (_, n) => ({
          store_id: store.id,
          email: `buyer${n}@bench.example`,
          email_key: `buyer${n}@bench.example`,
          first_name: 'Bench',
          last_name: `Buyer ${n}`,
          company_name: `Trade ${n} Ltd`,
          trade: 1,
          active: 1,
          created_at: createdAt,
        })),
      )
      .returning('id')
      .execute();
    const products = await trx
      .insertInto('products')
      .values(
        Array.from({ length: PRODUCT_COUNT }, (_, n) => ({
          store_id: store.id,
          title: `Bench product ${n}`,
          sku: skuOf(n),
          price: 100_000 + n,
          active: 1,
          created_at: createdAt,
        })),
      )
      .returning('id')
      .execute();
    const productIds = products.map((row) => Number(row.id)).sort((a, b) => a - b);
    await trx
      .insertInto('skus')
      .values(productIds.map((productId, n) => ({ store_id: store.id, sku: skuOf(n), product_id: productId, variation_id: null })))
      .execute();
    return { storeId: store.id, token, customerIds: customers.map((row) => Number(row.id)).sort((a, b) => a - b), productIds };
  });
}

function skuOf(productIndex: number): string {
  return `BENCH-${productIndex}`;
}

/** The k-th item the bench creates: customers and products in turn, prices with 2 decimals (one division, so exactly as JSON shows them). */
export function itemAt(catalog: Catalog, k: number): PriceItem {
  const productIndex = k % PRODUCT_COUNT;
  return {
    customerId: catalog.customerIds[k % CUSTOMER_COUNT]!,
    productId: catalog.productIds[productIndex]!,
    sku: skuOf(productIndex),
    price: ((k % 100_000) * 100 + 25) / 100,
  };
}

/** The body of every bulk-create request: 1000 items over 100 customers and all products. */
export function bulkItems(catalog: Catalog): PriceItem[] {
  return Array.from({ length: BULK_ITEMS }, (_, k) => {
    const item = itemAt(catalog, k);
    return { ...item, customerId: catalog.customerIds[k % CUSTOMERS_PER_BULK]! };
  });
}

/** A trade_prices row as the service stores it. */
export function rowOf(storeId: number, item: PriceItem, createdAt: string) {
  return { store_id: storeId, customer_id: item.customerId, product_id: item.productId, sku: item.sku, price: toPriceUnits(item.price), created_at: createdAt };
}

/** How many trade prices the store holds. */
export async function storedPrices(database: Database, storeId: number): Promise<number> {
  const row = await database.db
    .selectFrom('trade_prices')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('store_id', '=', storeId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Tops the store up to `target` trade prices, straight into the database with multi-row
 * inserts (never through HTTP). Returns the number stored afterwards.
 */
export async function seedPrices(database: Database, catalog: Catalog, target: number): Promise<number> {
  let stored = await storedPrices(database, catalog.storeId);
  const createdAt = new Date().toISOString();
  while (stored < target) {
    const inTransaction = Math.min(target - stored, SEED_ROWS_PER_INSERT * SEED_INSERTS_PER_TRANSACTION);
    const from = stored;
    await database.db.transaction().execute(async (trx) => {
      for (let start = 0; start < inTransaction; start += SEED_ROWS_PER_INSERT) {
        const size = Math.min(SEED_ROWS_PER_INSERT, inTransaction - start);
        const rows = Array.from({ length: size }, (_, i) => rowOf(catalog.storeId, itemAt(catalog, from + start + i), createdAt));
        await trx.insertInto('trade_prices').values(rows).execute();
      }
    });
    stored += inTransaction;
  }
  await refreshStatistics(database);
  return stored;
}

/**
 * PostgreSQL: what autovacuum does after bulk changes (the local test server runs with it
 * off). Without statistics the planner lists a customer's page with a bitmap scan and a sort
 * of all their rows (36 ms at 1M records) instead of walking the customer index (1 ms).
 */
async function refreshStatistics(database: Database): Promise<void> {
  if (database.engine.name !== 'postgres') return;
  await sql`vacuum analyze trade_prices`.execute(database.db);
  await sql`vacuum analyze events`.execute(database.db);
  await sql`vacuum analyze idempotency_records`.execute(database.db);
  await sql`vacuum analyze price_history`.execute(database.db);
}

/**
 * What seeding left of a store's price history: its head (the last entry's seq and hash, or
 * undefined when it has none) and the highest id among the trade prices it keeps as deleted.
 */
export interface HistoryMark {
  head: { seq: number; hash: string } | undefined;
  keptUpToId: number;
}

/** Where the store's price history ends now: read once seeding is done, to trim back to. */
export async function historyMark(database: Database, storeId: number): Promise<HistoryMark> {
  const head = await database.db.selectFrom('price_history_heads').select(['seq', 'hash']).where('store_id', '=', storeId).executeTakeFirst();
  const kept = await database.db
    .selectFrom('trade_prices_deleted')
    .select((eb) => eb.fn.max<number>('id').as('id'))
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  return { head: head === undefined ? undefined : { seq: Number(head.seq), hash: head.hash }, keptUpToId: Number(kept?.id ?? 0) };
}

/**
 * Puts the store back to what was seeded: drops the trade prices above `keepUpToId`, every
 * event and every idempotency record (seeding writes none; the bench's creates wrote them), and
 * with `history`, the price history entries written since and the deleted trade prices kept
 * since (the head goes back to where it was). Run while the server is idle, so every
 * bulk-create slice starts with the stored count it is reported at, its history included:
 * left to grow by a slice's tens of thousands of entries, with their nine indexes, it slowed
 * every slice after the first.
 */
export async function trimPrices(database: Database, storeId: number, keepUpToId: number, history?: HistoryMark): Promise<void> {
  await database.db.deleteFrom('trade_prices').where('store_id', '=', storeId).where('id', '>', keepUpToId).execute();
  await database.db.deleteFrom('events').where('store_id', '=', storeId).execute();
  await database.db.deleteFrom('idempotency_records').where('store_id', '=', storeId).execute();
  if (history !== undefined) {
    await database.db.deleteFrom('trade_prices_deleted').where('store_id', '=', storeId).where('id', '>', history.keptUpToId).execute();
    await database.db
      .deleteFrom('price_history')
      .where('store_id', '=', storeId)
      .where('seq', '>', history.head?.seq ?? 0)
      .execute();
    if (history.head === undefined) await database.db.deleteFrom('price_history_heads').where('store_id', '=', storeId).execute();
    else await database.db.updateTable('price_history_heads').set(history.head).where('store_id', '=', storeId).execute();
  }
  await refreshStatistics(database);
}

/** The lowest and highest trade price id of the store (GET-one picks ids between them). */
export async function priceIdRange(database: Database, storeId: number): Promise<{ min: number; max: number }> {
  const row = await database.db
    .selectFrom('trade_prices')
    .select((eb) => [eb.fn.min<number>('id').as('min'), eb.fn.max<number>('id').as('max')])
    .where('store_id', '=', storeId)
    .executeTakeFirstOrThrow();
  return { min: Number(row.min), max: Number(row.max) };
}

/** Lines of the quote scenario. */
export const QUOTE_LINES = 100;

/**
 * What the quote scenario prices: the first customer, given a fixed price list (an entry and a
 * quantity break for each of the first half of the quoted SKUs) and then a percentage list, so
 * a quote of the first `QUOTE_LINES` SKUs takes every branch of the rule: the customer's own
 * trade prices (the seeded ones, all on SKU `BENCH-0`), the fixed list, the percentage list.
 * Returns the request body.
 */
export async function seedQuote(database: Database, catalog: Catalog): Promise<string> {
  const createdAt = new Date().toISOString();
  const customerId = catalog.customerIds[0]!;
  const half = QUOTE_LINES / 2;
  await database.db.transaction().execute(async (trx) => {
    const [fixed, percentage] = await trx
      .insertInto('price_lists')
      .values([
        { store_id: catalog.storeId, name: 'Bench fixed', kind: 'fixed', percentage: null, created_at: createdAt },
        { store_id: catalog.storeId, name: 'Bench 12.5 % off', kind: 'percentage', percentage: toPriceUnits(12.5), created_at: createdAt },
      ])
      .returning('id')
      .execute();
    const entries = Array.from({ length: half }, (_, n) =>
      [
        { minQuantity: 1, price: 500 + n },
        { minQuantity: 10, price: 450 + n },
      ].map(({ minQuantity, price }) => ({
        store_id: catalog.storeId,
        price_list_id: Number(fixed!.id),
        product_id: catalog.productIds[n]!,
        sku: skuOf(n),
        price: toPriceUnits(price),
        min_quantity: minQuantity,
        valid_from: null,
        valid_until: null,
        created_at: createdAt,
      })),
    ).flat();
    await trx.insertInto('price_list_prices').values(entries).execute();
    await trx
      .insertInto('customer_price_lists')
      .values([fixed!, percentage!].map((list, position) => ({ store_id: catalog.storeId, customer_id: customerId, position, price_list_id: Number(list.id) })))
      .execute();
  });
  const lines = Array.from({ length: QUOTE_LINES }, (_, n) => ({ sku: skuOf(n), quantity: 1 + (n % 20) }));
  return JSON.stringify({ customerId, lines });
}

/** Customers the replace scenario replaces the prices of: none of them holds a seeded price. */
export const REPLACE_CUSTOMERS = 4;

/** Trade customers of their own for the replace scenario; their ids. */
export async function seedReplaceCustomers(database: Database, catalog: Catalog): Promise<number[]> {
  const createdAt = new Date().toISOString();
  const rows = await database.db
    .insertInto('customers')
    .values(
      Array.from({ length: REPLACE_CUSTOMERS }, (_, n) => ({
        store_id: catalog.storeId,
        email: `replacer${n}@bench.example`,
        email_key: `replacer${n}@bench.example`,
        first_name: 'Bench',
        last_name: `Replacer ${n}`,
        company_name: null,
        trade: 1,
        active: 1,
        created_at: createdAt,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

/**
 * Bodies of the replace scenario: for each customer, two sets of `BULK_ITEMS` prices over all
 * products that differ in every price, so each replace deletes one set and creates the other.
 * Request n sends body n mod (2 × customers): customers in turn, versions alternating.
 */
export function replaceBodies(catalog: Catalog, customerIds: readonly number[]): string[] {
  const bodies: string[] = [];
  for (const version of [0, 1]) {
    for (const customerId of customerIds) {
      const prices = Array.from({ length: BULK_ITEMS }, (_, k) => {
        const productIndex = k % PRODUCT_COUNT;
        return {
          productId: catalog.productIds[productIndex]!,
          sku: skuOf(productIndex),
          price: (k * 100 + version + 1) / 100,
          minQuantity: 1 + Math.floor(k / PRODUCT_COUNT),
        };
      });
      bodies.push(JSON.stringify({ customerId, scope: 'customer', prices }));
    }
  }
  return bodies;
}

/** A long-format CSV of `rows` prices over the bulk customers and all products, for the import scenario. */
export function importCsv(catalog: Catalog, rows: number): string {
  const lines = ['customer_id,sku,price'];
  for (let k = 0; k < rows; k++) {
    const item = itemAt(catalog, k);
    lines.push(`${catalog.customerIds[k % CUSTOMERS_PER_BULK]!},${item.sku},${item.price}`);
  }
  return `${lines.join('\n')}\n`;
}
