import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildServices } from '../src/app/services.js';
import { parseConfig } from '../src/config/config.js';
import { CLI_ORIGIN } from '../src/modules/history/change-records.js';

/**
 * The price history's storage cost per change on SQLite (docs/history.md, "Storage cost"):
 * 10 000 trade prices created through the one write path in bulk creates of 1000, then deleted
 * with their customer (a cascade); the bytes each table and its indexes take (SQLite's `dbstat`)
 * and the database's pages, before and after each step.
 */
const CHANGES = 10_000;
const BULK = 1000;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-history-storage-'));
  const services = await buildServices(parseConfig({ PRICEBOOK_DATA_DIR: dir, PRICEBOOK_DEMO: '0', PRICEBOOK_LOG_LEVEL: 'silent' }), { poolSize: 1 });
  try {
    const { db } = services.database;
    const store = await services.credentials.createStore('History storage');
    const customer = await services.customers.create(store.id, CLI_ORIGIN, { email: 'storage@example.com', trade: true });
    const skus = Array.from({ length: 100 }, (_, index) => `STORAGE-SKU-${String(index).padStart(3, '0')}`);
    const product = await services.products.create(store.id, CLI_ORIGIN, { title: 'Storage', price: 10, variations: skus.map((sku) => ({ sku })) });

    /** Bytes of each table with its indexes, and of the whole file, after a checkpoint. */
    const measure = async () => {
      await sql`pragma wal_checkpoint(truncate)`.execute(db);
      const tables = await sql<{ table: string; bytes: number }>`
        select m.tbl_name as "table", sum(d.pgsize) as bytes from dbstat d join sqlite_master m on m.name = d.name
        where m.tbl_name in ('price_history', 'trade_prices', 'trade_prices_deleted', 'events') group by m.tbl_name`.execute(db);
      const history = await sql<{ name: string; bytes: number }>`
        select d.name as name, sum(d.pgsize) as bytes from dbstat d join sqlite_master m on m.name = d.name where m.tbl_name = 'price_history' group by d.name`.execute(
        db,
      );
      const pages = await sql<{ page_count: number }>`pragma page_count`.execute(db);
      const pageSize = await sql<{ page_size: number }>`pragma page_size`.execute(db);
      return {
        file: Number(pages.rows[0]!.page_count) * Number(pageSize.rows[0]!.page_size),
        ...Object.fromEntries(tables.rows.map((row) => [row.table, Number(row.bytes)])),
        ...Object.fromEntries(history.rows.map((row) => [`history:${row.name}`, Number(row.bytes)])),
      } as Record<string, number>;
    };
    const report = (step: string, before: Record<string, number>, after: Record<string, number>, entries: number) => {
      const per = (name: string) => (((after[name] ?? 0) - (before[name] ?? 0)) / entries).toFixed(0);
      console.log(
        `${step}: ${entries} changes; per change: history ${per('price_history')} bytes (table and its 9 indexes), ` +
          `trade prices ${per('trade_prices')}, deleted prices kept ${per('trade_prices_deleted')}, events ${per('events')}; whole file ${per('file')} bytes`,
      );
      const parts = Object.keys(after).filter((name) => name.startsWith('history:'));
      console.log(`  history by part: ${parts.map((name) => `${name.slice('history:'.length)} ${per(name)}`).join(', ')}`);
    };

    const start = await measure();
    for (let made = 0; made < CHANGES; made += BULK) {
      await services.tradePrices.bulkCreate(
        store.id,
        CLI_ORIGIN,
        Array.from({ length: BULK }, (_, index) => ({
          customerId: customer.id,
          productId: product.id,
          sku: skus[(made + index) % skus.length]!,
          price: 1 + ((made + index) % 997) / 100,
        })),
      );
    }
    const created = await measure();
    report('created', start, created, CHANGES);
    await services.customers.remove(store.id, CLI_ORIGIN, customer.id);
    const deleted = await measure();
    report('deleted (a cascade)', created, deleted, CHANGES);
  } finally {
    await services.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
