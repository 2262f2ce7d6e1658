import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Removes the trade prices and price list entries whose SKU no longer belongs to the product
 * they were recorded for: before SKU renames were refused while prices existed, and before a
 * variation's deletion took its prices with it, such records stayed behind and priced
 * whichever product took the SKU next. Each is deleted as any deletion is, with its
 * `trade_customer_product_price.deleted` or `price_list_price.deleted` event (the record as the
 * API answered it), so webhook receivers and the event feed learn of it; trade prices first,
 * then list entries, each in id order.
 *
 * One pass over each table, 500 records a batch (memory holds one batch); the anti-join is a
 * lookup in the SKU register's key per record. The events carry the moment the migration ran.
 */
export function pricesOfLostSkusSchema(): Migration {
  return {
    async up(untyped: Kysely<unknown>) {
      const db = untyped as unknown as Kysely<MigrationTables>;
      const deletedAt = new Date().toISOString();
      await removeStranded(db, 'trade_prices', 'trade_customer_product_price.deleted', deletedAt, (row) => ({
        id: Number(row.id),
        customerId: Number(row.customer_id),
        productId: Number(row.product_id),
        sku: row.sku,
        price: Number(row.price) / 10_000,
        minQuantity: Number(row.min_quantity),
        validFrom: row.valid_from,
        validUntil: row.valid_until,
        createdAt: row.created_at,
      }));
      await removeStranded(db, 'price_list_prices', 'price_list_price.deleted', deletedAt, (row) => ({
        id: Number(row.id),
        priceListId: Number(row.price_list_id),
        productId: Number(row.product_id),
        sku: row.sku,
        price: Number(row.price) / 10_000,
        minQuantity: Number(row.min_quantity),
        validFrom: row.valid_from,
        validUntil: row.valid_until,
        createdAt: row.created_at,
      }));
    },
  };
}

/** Records deleted, and their events written, per statement. */
const BATCH = 500;

async function removeStranded<T extends 'trade_prices' | 'price_list_prices'>(
  db: Kysely<MigrationTables>,
  table: T,
  topic: string,
  deletedAt: string,
  asRecord: (row: MigrationTables[T]) => { id: number },
): Promise<void> {
  for (let afterId = 0; ;) {
    const { rows } = await sql<MigrationTables[T]>`
      select * from ${sql.table(table)} as t
      where t.id > ${afterId}
        and not exists (select 1 from skus as s where s.store_id = t.store_id and s.sku = t.sku and s.product_id = t.product_id)
      order by t.id
      limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    const records = rows.map(asRecord);
    const ids = records.map((record) => record.id);
    await sql`delete from ${sql.table(table)} where id in (${sql.join(ids)})`.execute(db);
    await db
      .insertInto('events')
      .values(
        rows.map((row, index) => ({
          store_id: Number(row.store_id),
          topic,
          subject_id: ids[index]!,
          data: JSON.stringify(records[index]),
          created_at: deletedAt,
          fanned_out: 0,
        })),
      )
      .execute();
    if (rows.length < BATCH) return;
    afterId = ids[ids.length - 1]!;
  }
}

/** The tables as this migration knows them: later changes to `Tables` must not change what it does. */
interface MigrationTables {
  trade_prices: {
    id: number;
    store_id: number;
    customer_id: number;
    product_id: number;
    sku: string;
    price: number;
    min_quantity: number;
    valid_from: string | null;
    valid_until: string | null;
    created_at: string;
  };
  price_list_prices: {
    id: number;
    store_id: number;
    price_list_id: number;
    product_id: number;
    sku: string;
    price: number;
    min_quantity: number;
    valid_from: string | null;
    valid_until: string | null;
    created_at: string;
  };
  events: { store_id: number; topic: string; subject_id: number; data: string; created_at: string; fanned_out: number };
}
