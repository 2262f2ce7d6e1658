import { sql } from 'kysely';
import { fromPriceUnits } from '../src/modules/shared/money.js';
import type { HistoryRecord } from '../src/modules/history/history-entry.js';
import type { Database } from '../src/storage/database.js';
import { KyselyHistoryRepository } from '../src/storage/repositories/history-repository.js';
import { keepDeletedTradePrices } from '../src/storage/repositories/deleted-rows.js';
import type { Catalog } from './bench-data.js';

/** Trade prices of each customer deleted after the moment asked (on the first products). */
const DELETED_PER_CUSTOMER = 20;
/** History entries appended in one transaction while seeding. */
const ENTRIES_PER_TRANSACTION = 20_000;
/** Ids of trade prices read at once to record them. */
const PRICES_PER_READ = 20_000;
const ORIGIN = { actor: { type: 'key' as const, id: 0, name: 'bench' }, source: 'api' as const, sourceId: null, requestId: null };

/**
 * The history an as-of read looks through, on a store seeded with trade prices at moment S
 * (their `created_at`), written by the history's own repository (so the chain is real):
 * - customers and products created at S − 2 h; customers updated at S − 1 h (the entry the
 *   read takes at T is the latest before it); products re-priced at S + 1 s (the read takes
 *   the `before` of that entry: the price at T);
 * - the seeded trade prices of the first `recordedSkus` SKUs (those the scenario reads) recorded
 *   as created at S: 100 000 entries at 1 000 000 stored with 20 of the 200 SKUs. The read
 *   never looks at a price's entries (it reads the prices' rows), so the others' entries would
 *   only deepen its indexes by a level, and take minutes to seed;
 * - `DELETED_PER_CUSTOMER` more trade prices of each customer, created at S − 1 h and deleted
 *   at S + 0.75 s: kept in `trade_prices_deleted`, seen at T.
 * Returns T = S + 0.5 s, the moment the scenario asks at (in the past once the server runs).
 */
export async function seedAsOfHistory(database: Database, catalog: Catalog, recordedSkus: number): Promise<string> {
  const { db, engine } = database;
  const first = await db
    .selectFrom('trade_prices')
    .select(['created_at'])
    .where('store_id', '=', catalog.storeId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  const seededAt = Date.parse(first.created_at);
  const moment = (offsetMs: number) => new Date(seededAt + offsetMs).toISOString();
  const append = (at: string, records: HistoryRecord[]) =>
    db.transaction().execute(async (trx) => {
      const history = new KyselyHistoryRepository(trx, engine);
      await history.lockChain(catalog.storeId);
      for (let start = 0; start < records.length; start += ENTRIES_PER_TRANSACTION)
        await history.append(catalog.storeId, at, ORIGIN, records.slice(start, start + ENTRIES_PER_TRANSACTION));
    });

  const customers = await db.selectFrom('customers').selectAll().where('store_id', '=', catalog.storeId).orderBy('id').execute();
  const lists = await db
    .selectFrom('customer_price_lists')
    .select(['customer_id', 'price_list_id'])
    .where('store_id', '=', catalog.storeId)
    .orderBy('customer_id')
    .orderBy('position')
    .execute();
  const customerRecord = (row: (typeof customers)[number]) => ({
    id: Number(row.id),
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    companyName: row.company_name,
    trade: Boolean(row.trade),
    active: Boolean(row.active),
    priceListIds: lists.filter((list) => Number(list.customer_id) === Number(row.id)).map((list) => Number(list.price_list_id)),
    createdAt: row.created_at,
  });
  const products = await db.selectFrom('products').selectAll().where('store_id', '=', catalog.storeId).orderBy('id').execute();
  const productRecord = (row: (typeof products)[number], priceUnits: number) => ({
    id: Number(row.id),
    title: row.title,
    sku: row.sku,
    price: fromPriceUnits(priceUnits),
    active: Boolean(row.active),
    categoryIds: [],
    variations: [],
    createdAt: row.created_at,
  });
  const scalar = (resource: 'customer' | 'product', id: number, before: object | null, after: object, sku: string | null): HistoryRecord => ({
    resource,
    resourceId: id,
    change: before === null ? 'created' : 'updated',
    before,
    after,
    customerId: resource === 'customer' ? id : null,
    productId: resource === 'product' ? id : null,
    priceListId: null,
    sku,
  });

  // S − 2 h: the customers and the products, each product a unit cheaper than now.
  await append(moment(-7_200_000), [
    ...customers.map((row) => scalar('customer', Number(row.id), null, { ...customerRecord(row), trade: false }, null)),
    ...products.map((row) => scalar('product', Number(row.id), null, productRecord(row, Number(row.price) - 1), row.sku)),
  ]);
  // S − 1 h: the customers become trade customers; the prices to be deleted are created.
  await append(
    moment(-3_600_000),
    customers.map((row) => scalar('customer', Number(row.id), { ...customerRecord(row), trade: false }, customerRecord(row), null)),
  );
  const doomedAt = moment(-3_600_000);
  const doomed = await db
    .insertInto('trade_prices')
    .values(
      catalog.customerIds.flatMap((customerId) =>
        catalog.productIds.slice(0, DELETED_PER_CUSTOMER).map((productId, n) => ({
          store_id: catalog.storeId,
          customer_id: customerId,
          product_id: productId,
          sku: `BENCH-${n}`,
          price: 12_345,
          created_at: doomedAt,
        })),
      ),
    )
    .returningAll()
    .execute();
  await append(
    doomedAt,
    doomed.map((row) => tradePriceRecord(row, null)),
  );

  // S: the seeded trade prices of the SKUs read, recorded in pages.
  const recorded = Array.from({ length: recordedSkus }, (_, n) => `BENCH-${n}`);
  for (let after = 0; ;) {
    const page = await db
      .selectFrom('trade_prices')
      .selectAll()
      .where('store_id', '=', catalog.storeId)
      .where('id', '>', after)
      .where('created_at', '=', first.created_at)
      .where('sku', 'in', recorded)
      .orderBy('id')
      .limit(PRICES_PER_READ)
      .execute();
    if (page.length === 0) break;
    await append(
      first.created_at,
      page.map((row) => tradePriceRecord(row, null)),
    );
    after = Number(page.at(-1)!.id);
  }

  // S + 0.75 s: the doomed prices go (kept with their moment); S + 1 s: the products take today's price.
  const deletedAt = moment(750);
  await db.transaction().execute(async (trx) => {
    await keepDeletedTradePrices(trx, engine, doomed, deletedAt);
    for (let start = 0; start < doomed.length; start += 1000) {
      await trx
        .deleteFrom('trade_prices')
        .where(
          'id',
          'in',
          doomed.slice(start, start + 1000).map((row) => row.id),
        )
        .execute();
    }
  });
  await append(
    deletedAt,
    doomed.map((row) => tradePriceRecord(null, row)),
  );
  await append(
    moment(1000),
    products.map((row) => scalar('product', Number(row.id), productRecord(row, Number(row.price) - 1), productRecord(row, Number(row.price)), row.sku)),
  );
  // As seedPrices does: what autovacuum would do after bulk changes (the local server runs without it).
  if (engine.name === 'postgres') {
    for (const table of ['price_history', 'trade_prices_deleted', 'trade_prices']) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  }
  return moment(500);
}

interface PriceRow {
  id: number;
  customer_id: number;
  product_id: number;
  sku: string;
  price: number;
  min_quantity: number;
  valid_from: string | null;
  valid_until: string | null;
  created_at: string;
}

/** A trade price's entry: `created` with `before` as given and the row as after, or `deleted` (`before` null, the row gone). */
function tradePriceRecord(row: PriceRow | null, gone: PriceRow | null): HistoryRecord {
  const price = (row ?? gone)!;
  const record = {
    id: Number(price.id),
    customerId: Number(price.customer_id),
    productId: Number(price.product_id),
    sku: price.sku,
    price: fromPriceUnits(Number(price.price)),
    minQuantity: Number(price.min_quantity),
    validFrom: price.valid_from,
    validUntil: price.valid_until,
    createdAt: price.created_at,
  };
  return {
    resource: 'trade_price',
    resourceId: record.id,
    change: gone === null ? 'created' : 'deleted',
    before: gone === null ? null : record,
    after: gone === null ? record : null,
    customerId: record.customerId,
    productId: record.productId,
    priceListId: null,
    sku: record.sku,
  };
}

/** The as-of scenario's requests: every customer with each of the first SKUs, at T, in an order that jumps across them. */
export function asOfPaths(catalog: Catalog, at: string, skus: number): string[] {
  const paths: string[] = [];
  for (const customerId of catalog.customerIds) {
    for (let n = 0; n < skus; n++)
      paths.push(`/v1/trade-customer-product-prices/effective?customerId=${customerId}&sku=BENCH-${n}&at=${encodeURIComponent(at)}`);
  }
  return paths;
}
