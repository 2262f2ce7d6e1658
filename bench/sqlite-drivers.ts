/**
 * `npm run bench:sqlite-drivers [-- --records=N]`: better-sqlite3 (the project's driver) against
 * `node:sqlite` (built into Node, no native build) on the project's hot statements, on one
 * seeded SQLite file opened as the server opened it when these figures were taken (WAL, synchronous=FULL, a writer and a
 * read-only reader connection).
 *
 * Two levels, each in interleaved rounds (the machine is shared; the driver that goes first
 * alternates):
 * - `raw`: the exact SQL the repositories run (captured from them), prepared once, run on
 *   the bare driver: what the driver itself costs;
 * - `kysely`: the repositories' own calls through Kysely and `QueuedSqliteDialect`, as the
 *   server runs them (node:sqlite behind a small adapter, bench/node-sqlite-adapter.ts).
 * Figures: wall time and CPU time per operation, the median over the rounds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import { openDatabase, SQLITE_FILE_NAME } from '../src/storage/database.js';
import { SQLITE } from '../src/storage/engine.js';
import { HotReads } from '../src/storage/repositories/hot-reads.js';
import { KyselyApiKeyRepository } from '../src/storage/repositories/store-repository.js';
import { KyselyTradePriceRepository } from '../src/storage/repositories/trade-price-repository.js';
import { QueuedSqliteDialect } from '../src/storage/sqlite-dialect.js';
import type { Tables } from '../src/storage/tables.js';
import { bulkItems, type Catalog, CUSTOMER_COUNT, type PriceItem, priceIdRange, rowOf, seedCatalog, seedPrices } from './bench-data.js';
import type { NewTradePrice } from '../src/modules/trade-prices/trade-price-repository.js';
import { NodeSqliteDatabase } from './node-sqlite-adapter.js';

/** SQLite prepares every statement it runs anyway: nothing to register. */
const SQLITE_STATEMENTS = { register: () => undefined };

const ROUNDS = 7;
const PAGE = 50;
/** Operations per slice (one driver, one operation, one round): each slice takes 0.1–1 s here. */
const SLICE = { credential: 20_000, get: 20_000, list: 2_000, insert: 15 };
/** Through Kysely each operation also pays for building and compiling the query. */
const KYSELY_SLICE = { credential: 5_000, get: 5_000, list: 1_000, insert: 10 };

const records = parseRecords(process.argv.slice(2));
const startedAt = Date.now();
const progress = (message: string) => process.stderr.write(`[sqlite-drivers ${((Date.now() - startedAt) / 1000).toFixed(0)}s] ${message}\n`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-sqlite-drivers-'));
try {
  await main();
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function parseRecords(argv: readonly string[]): number {
  let value = 100_000;
  for (const arg of argv) {
    const match = /^--records=(\d+)$/.exec(arg);
    if (match === null) throw new Error(`unknown argument '${arg}': use --records=N`);
    value = Number(match[1]);
  }
  if (value < 1000 || value > 5_000_000) throw new Error('--records must be between 1000 and 5000000');
  return value;
}

/** One driver: a writer and a read-only reader on the bench file, as the server opens them. */
interface Driver {
  name: 'better-sqlite3' | 'node:sqlite';
  sqliteVersion: string;
  writer: SqliteDatabase.Database;
  reader: SqliteDatabase.Database;
}

function openBetterSqlite(file: string): Driver {
  const writer = new SqliteDatabase(file);
  applyServerPragmas((text) => writer.pragma(text));
  const reader = new SqliteDatabase(file, { readonly: true });
  reader.pragma('busy_timeout = 5000');
  const version = (writer.prepare('select sqlite_version() as version').get() as { version: string }).version;
  return { name: 'better-sqlite3', sqliteVersion: version, writer, reader };
}

function openNodeSqlite(file: string): Driver {
  const writer = new NodeSqliteDatabase(file);
  applyServerPragmas((text) => writer.pragma(text));
  const reader = new NodeSqliteDatabase(file, { readOnly: true });
  reader.pragma('busy_timeout = 5000');
  return { name: 'node:sqlite', sqliteVersion: process.versions.sqlite ?? '?', writer: writer.asBetterSqlite(), reader: reader.asBetterSqlite() };
}

/** The pragmas `openDatabase` sets on the server's SQLite connection. */
function applyServerPragmas(pragma: (text: string) => unknown): void {
  pragma('journal_mode = WAL');
  pragma('synchronous = FULL');
  pragma('foreign_keys = ON');
  pragma('busy_timeout = 5000');
}

/** The operations of one level on one driver; each returns a value so none is optimised away. */
interface Operations {
  credential(i: number): Promise<unknown> | unknown;
  get(i: number): Promise<unknown> | unknown;
  list(i: number): Promise<unknown> | unknown;
  /** One transaction: 1000 rows in one multi-row insert … returning id, then commit. */
  insert(i: number): Promise<unknown> | unknown;
}

interface Workload {
  catalog: Catalog;
  key: string;
  ids: { min: number; max: number };
  perCustomer: number;
}

/** Ids over the whole stored range, consecutive calls far apart (a multiplicative walk). */
function idAt(workload: Workload, i: number): number {
  const span = workload.ids.max - workload.ids.min + 1;
  return workload.ids.min + ((i * 2_654_435_761) % span);
}

/** Customers in turn, each on a page anywhere in their records. */
function pageAt(workload: Workload, i: number): { customerId: number; offset: number } {
  const pages = Math.max(1, Math.floor(workload.perCustomer / PAGE));
  return { customerId: workload.catalog.customerIds[i % CUSTOMER_COUNT]!, offset: ((Math.floor(i / CUSTOMER_COUNT) * 7) % pages) * PAGE };
}

/** The repositories' SQL, captured from one call of each through Kysely. */
async function captureSql(driver: Driver, workload: Workload): Promise<Record<keyof Operations, string>> {
  const captured: string[] = [];
  const db = new Kysely<Tables>({ dialect: new QueuedSqliteDialect(driver.writer, () => driver.reader), log: (event) => void captured.push(event.query.sql) });
  const hotReads = new HotReads(db, SQLITE_STATEMENTS);
  const prices = new KyselyTradePriceRepository(db, SQLITE, hotReads);
  const last = async (work: () => Promise<unknown>) => {
    captured.length = 0;
    await work();
    return captured.find((text) => /^(select|insert)/.test(text)) ?? '';
  };
  const items = bulkItems(workload.catalog).map(fromOneUnitAlways);
  const sqlOf = {
    credential: await last(() => new KyselyApiKeyRepository(db, hotReads).findByKey(workload.key)),
    get: await last(() => prices.find(workload.catalog.storeId, workload.ids.min)),
    list: await last(() => prices.list(workload.catalog.storeId, { customerId: workload.catalog.customerIds[0]! }, { count: PAGE, offset: 0 })),
    insert: await last(() =>
      db
        .transaction()
        .execute((trx) => new KyselyTradePriceRepository(trx, SQLITE, hotReads).insertMany(workload.catalog.storeId, items, new Date().toISOString())),
    ),
  };
  // Not destroyed: that would close the driver's connections, which the rounds go on using.
  return sqlOf;
}

function rawOperations(driver: Driver, workload: Workload, sqlOf: Record<keyof Operations, string>): Operations {
  const { storeId } = workload.catalog;
  const credential = driver.reader.prepare(sqlOf.credential);
  const get = driver.reader.prepare(sqlOf.get);
  const list = driver.reader.prepare(sqlOf.list);
  const insert = driver.writer.prepare(sqlOf.insert);
  const begin = driver.writer.prepare(SQLITE.beginTransactionSql);
  const commit = driver.writer.prepare('commit');
  const items = bulkItems(workload.catalog).map(fromOneUnitAlways);
  return {
    credential: () => credential.all([workload.key]),
    get: (i) => get.all([storeId, idAt(workload, i)]),
    list: (i) => {
      const { customerId, offset } = pageAt(workload, i);
      return list.all([storeId, customerId, PAGE, offset]);
    },
    insert: () => {
      const createdAt = new Date().toISOString();
      const parameters = items.flatMap((item) => Object.values(rowOf(storeId, item, createdAt)));
      begin.run([]);
      const ids = insert.all(parameters);
      commit.run([]);
      return ids;
    },
  };
}

function kyselyOperations(driver: Driver, workload: Workload): Operations {
  const db = new Kysely<Tables>({ dialect: new QueuedSqliteDialect(driver.writer, () => driver.reader) });
  const { storeId } = workload.catalog;
  const hotReads = new HotReads(db, SQLITE_STATEMENTS);
  const prices = new KyselyTradePriceRepository(db, SQLITE, hotReads);
  const apiKeys = new KyselyApiKeyRepository(db, hotReads);
  const items = bulkItems(workload.catalog).map(fromOneUnitAlways);
  return {
    credential: () => apiKeys.findByKey(workload.key),
    get: (i) => prices.find(storeId, idAt(workload, i)),
    list: (i) => {
      const { customerId, offset } = pageAt(workload, i);
      return prices.list(storeId, { customerId }, { count: PAGE, offset });
    },
    insert: () => db.transaction().execute((trx) => new KyselyTradePriceRepository(trx, SQLITE, hotReads).insertMany(storeId, items, new Date().toISOString())),
  };
}

/** Microseconds of wall and CPU time per operation over `count` operations in a row. */
async function slice(operation: (i: number) => Promise<unknown> | unknown, count: number, first: number): Promise<{ wallUs: number; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let sink = 0;
  for (let i = first; i < first + count; i++) if ((await operation(i)) !== undefined) sink++;
  const wallUs = ((performance.now() - started) * 1000) / count;
  const used = process.cpuUsage(cpu);
  if (sink < 0) throw new Error('unreachable');
  return { wallUs, cpuUs: (used.user + used.system) / count };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  progress(`seeding ${records} trade prices`);
  const seeded = await openDatabase({ databaseUrl: undefined, dataDir });
  const catalog = await seedCatalog(seeded);
  await seedPrices(seeded, catalog, records);
  const ids = await priceIdRange(seeded, catalog.storeId);
  await seeded.close();
  const workload: Workload = { catalog, key: catalog.token.slice(0, catalog.token.indexOf('.')), ids, perCustomer: Math.floor(records / CUSTOMER_COUNT) };
  const file = path.join(dataDir, SQLITE_FILE_NAME);

  const drivers = [openBetterSqlite(file), openNodeSqlite(file)];
  const sqlOf = await captureSql(drivers[0]!, workload);
  const levels = [
    { name: 'raw', counts: SLICE, operations: drivers.map((driver) => rawOperations(driver, workload, sqlOf)) },
    { name: 'kysely', counts: KYSELY_SLICE, operations: drivers.map((driver) => kyselyOperations(driver, workload)) },
  ];
  const names = Object.keys(SLICE) as Array<keyof Operations>;
  // results[level][operation][driver] = slices
  const results = levels.map(() => names.map(() => drivers.map(() => [] as Array<{ wallUs: number; cpuUs: number }>)));
  const trim = drivers[0]!.writer.prepare('delete from trade_prices where store_id = ? and id > ?');
  const cleanEvents = drivers[0]!.writer.prepare('delete from events where store_id = ?');

  // Warm-up: a short slice of everything on both drivers.
  for (const level of levels)
    for (const operations of level.operations) for (const name of names) await slice(operations[name], Math.ceil(level.counts[name] / 10), 0);
  trim.run([catalog.storeId, ids.max]);

  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const [l, level] of levels.entries()) {
      for (const [o, name] of names.entries()) {
        for (const d of order) {
          results[l]![o]![d]!.push(await slice(level.operations[d]![name], level.counts[name], round * level.counts[name]));
          // Every insert slice starts from the seeded records.
          if (name === 'insert') {
            trim.run([catalog.storeId, ids.max]);
            cleanEvents.run([catalog.storeId]);
          }
        }
      }
    }
    progress(`round ${round + 1}/${ROUNDS}`);
  }

  const [load1, load5, load15] = os.loadavg().map((value) => value.toFixed(2));
  process.stdout.write(
    `# sqlite drivers on ${records} stored trade prices, ${new Date().toISOString()}: node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${load1} ${load5} ${load15}\n` +
      `# ${drivers.map((driver) => `${driver.name} (SQLite ${driver.sqliteVersion})`).join(', ')}; ${ROUNDS} interleaved rounds, median per operation, wall / CPU µs\n`,
  );
  for (const [l, level] of levels.entries()) {
    for (const [o, name] of names.entries()) {
      const [better, node] = drivers.map((_, d) => ({
        wall: median(results[l]![o]![d]!.map((r) => r.wallUs)),
        cpu: median(results[l]![o]![d]!.map((r) => r.cpuUs)),
      }));
      process.stdout.write(
        `${level.name} ${name}: better-sqlite3 ${format(better!.wall)} / ${format(better!.cpu)} µs, node:sqlite ${format(node!.wall)} / ${format(node!.cpu)} µs ` +
          `(node:sqlite ${(node!.wall / better!.wall).toFixed(2)}× the wall time)\n`,
      );
    }
  }
  for (const driver of drivers) {
    driver.reader.close();
    driver.writer.close();
  }
  process.stdout.write(
    `# took ${((Date.now() - startedAt) / 1000).toFixed(0)} s, load average now ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}\n`,
  );
}

function format(us: number): string {
  return us >= 100 ? us.toFixed(0) : us.toFixed(1);
}

/** A bench item as the repository stores it: the interface's four fields mean from 1 unit, always. */
function fromOneUnitAlways(item: PriceItem): NewTradePrice {
  return { ...item, minQuantity: 1, validFrom: null, validUntil: null };
}
