import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildServices } from '../../src/app/services.js';
import { parseConfig } from '../../src/config/config.js';
import { ChainVerifier } from '../../src/modules/history/chain-verifier.js';
import { GENESIS_HASH, chainHash } from '../../src/modules/history/history-chain.js';
import type { ChangeSource, HistoryChange, HistoryResource } from '../../src/modules/history/history-entry.js';
import { type Database, openDatabase } from '../../src/storage/database.js';
import { KyselyUnitOfWork } from '../../src/storage/kysely-unit-of-work.js';
import { createPostgresDatabase, enginesUnderTest } from '../support/engines.js';
import { type Instance, startInstance, tlsFiles } from '../support/instance-process.js';
import type { HttpResponse } from '../support/test-server.js';
import { faultSeed, figure, reportLine, seededRandom } from './support/report.js';
import { strength } from './support/strength.js';

/**
 * kill -9 and the price history: a real `pricebook serve` takes bulk creates of trade prices
 * and list entries, deletes of single prices and entries, replaces, and list changes (created,
 * re-percentaged, deleted with their entries) from several clients at once, and is killed with
 * SIGKILL at random moments and restarted. Afterwards, read straight from the database, every
 * price record (live or deleted) has its history entries and every entry its record: 0 changes
 * without history, 0 history without a change; the store's chain is numbered without gaps and
 * every hash holds. A negative control damages the database and sees the checker count it.
 */
const engines = await enginesUnderTest();
const CYCLES = strength({ sqlite: 8, postgres: 5 }, { sqlite: 30, postgres: 10 });
const CONCURRENCY = 4;
const SKUS = 20;
const seed = faultSeed();

interface HistoryCheck {
  /** Live or deleted records without their `created` entry, and `created` entries without a record. */
  createdWithoutEntry: number;
  entriesWithoutRecord: number;
  /** Deleted records without their `deleted` entry, and `deleted` entries whose record is live or absent. */
  deletedWithoutEntry: number;
  deletedEntriesWithoutDeletion: number;
  /** Lists: live ones whose last entry is not a creation or update, and entries saying a live list was deleted. */
  listMismatches: number;
  /** Entries recorded twice for one record and change. */
  duplicated: number;
  /** Seqs missing from 1..head, and entries whose hash or prevHash does not hold. */
  seqGaps: number;
  badHashes: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kill -9: history and data commit together', () => {
  it.each(engines)(
    'leaves no change without its history and no history without its change on %s',
    async (engine) => {
      const random = seededRandom(seed);
      const tls = await tlsFiles();
      const postgres = engine === 'postgres' ? await createPostgresDatabase() : undefined;
      const storage = { PRICEBOOK_DATA_DIR: path.join(tls.dir, 'data'), ...(postgres && { DATABASE_URL: postgres.url }) };
      const env = {
        ...storage,
        PRICEBOOK_RATE_LIMIT_BUCKET: '1000000',
        PRICEBOOK_RATE_LIMIT_LEAK: '100000',
        PRICEBOOK_AUTH_FAILURE_BUCKET: '100000',
        PRICEBOOK_WEBHOOK_WORKER: '0',
      };
      const started = Date.now();
      let instance: Instance | undefined;
      try {
        const setup = await buildServices(parseConfig({ ...storage, PRICEBOOK_DEMO: '0', PRICEBOOK_LOG_LEVEL: 'silent' }), { poolSize: 1 });
        const store = await setup.credentials.createStore('History crash store');
        const { token } = await setup.credentials.issueKey(store.id);
        await setup.close();

        const start = () => startInstance({ name: 'history-crash', env, tls, connections: CONCURRENCY + 2 });
        instance = await start();
        const must = async (response: Promise<HttpResponse>) => {
          const answer = await response;
          if (answer.status >= 300) throw new Error(`setup failed: ${answer.status} ${answer.text}`);
          return answer.body as { id: number };
        };
        const first = instance;
        const customers: number[] = [];
        for (let index = 0; index < 3; index++)
          customers.push((await must(first.request('POST', '/v1/customers', { token, body: { email: `c${index}@example.com`, trade: true } }))).id);
        const skus = Array.from({ length: SKUS }, (_, index) => `HC-${index}`);
        const productId = (
          await must(first.request('POST', '/v1/products', { token, body: { title: 'Crash', price: 10, variations: skus.map((sku) => ({ sku })) } }))
        ).id;
        const fixedList = (await must(first.request('POST', '/v1/price-lists', { token, body: { name: 'Fixed', kind: 'fixed' } }))).id;
        const percentList = (await must(first.request('POST', '/v1/price-lists', { token, body: { name: 'Off', kind: 'percentage', percentage: 5 } }))).id;

        const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
        const prices = (count: number) =>
          Array.from({ length: count }, () => ({ productId, sku: pick(skus), price: (100 + Math.round(random() * 900)) / 100 }));
        let answered = 0;
        let failedConnections = 0;
        const seenTradeIds: number[] = [];
        const seenEntryIds: number[] = [];
        const otherStatuses: Record<string, number> = {};
        const refusals: string[] = [];

        /** One random write; its answer, or a dead connection (killed mid-request). */
        const write = async (target: Instance): Promise<void> => {
          const roll = random();
          let request: Promise<HttpResponse>;
          if (roll < 0.3)
            request = target.request('POST', '/v1/trade-customer-product-prices/bulk', {
              token,
              body: prices(200).map((item) => ({ ...item, customerId: pick(customers) })),
            });
          else if (roll < 0.45) request = target.request('POST', `/v1/price-lists/${fixedList}/prices/bulk`, { token, body: prices(100) });
          else if (roll < 0.55)
            request = target.request('POST', '/v1/trade-customer-product-prices/replace', {
              token,
              body: { customerId: pick(customers), scope: 'skus', prices: prices(50) },
            });
          else if (roll < 0.68 && seenTradeIds.length > 0)
            request = target.request('DELETE', `/v1/trade-customer-product-prices/${seenTradeIds.splice(Math.floor(random() * seenTradeIds.length), 1)[0]}`, {
              token,
            });
          else if (roll < 0.78 && seenEntryIds.length > 0)
            request = target.request('DELETE', `/v1/price-lists/${fixedList}/prices/${seenEntryIds.splice(Math.floor(random() * seenEntryIds.length), 1)[0]}`, {
              token,
            });
          else if (roll < 0.88)
            request = target.request('PUT', `/v1/price-lists/${percentList}`, { token, body: { percentage: Math.round(random() * 5000) / 100 } });
          else {
            // A list made, given entries, and deleted with them: three transactions, any of which a kill may cut.
            request = (async () => {
              const created = await target.request('POST', '/v1/price-lists', { token, body: { name: 'Short-lived', kind: 'fixed' } });
              if (created.status !== 201) return created;
              const id = (created.body as { id: number }).id;
              const filled = await target.request('POST', `/v1/price-lists/${id}/prices/bulk`, { token, body: prices(50) });
              if (filled.status !== 201) return filled;
              return target.request('DELETE', `/v1/price-lists/${id}`, { token });
            })();
          }
          try {
            const response = await request;
            answered += 1;
            if (response.status >= 300) {
              otherStatuses[response.status] = (otherStatuses[response.status] ?? 0) + 1;
              if (refusals.length < 3) refusals.push(`${response.status} ${response.text.slice(0, 200)}`);
            } else if (Array.isArray(response.body)) {
              const ids = (response.body as Array<{ id: number; customerId?: number }>).map((record) => record.id);
              if (roll < 0.3) seenTradeIds.push(...ids);
              else seenEntryIds.push(...ids);
            }
          } catch {
            failedConnections += 1;
          }
        };

        for (let cycle = 1; cycle <= CYCLES[engine]; cycle++) {
          if (cycle > 1) instance = await start();
          const target = instance;
          let loading = true;
          const workers = Array.from({ length: CONCURRENCY }, async () => {
            while (loading) await write(target);
          });
          await sleep(300 + random() * 1200);
          loading = false;
          await target.kill();
          await Promise.all(workers);
        }
        // The restart: recovery runs (SQLite's journal, PostgreSQL's), then a clean stop.
        instance = await start();
        await instance.stop();
        instance = undefined;

        const database = await openDatabase({ databaseUrl: postgres?.url, dataDir: storage.PRICEBOOK_DATA_DIR, poolSize: 1 });
        try {
          const check = await checkHistory(database, store.id);
          const entries = Number(
            (
              await database.db
                .selectFrom('price_history')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('store_id', '=', store.id)
                .executeTakeFirstOrThrow()
            ).n,
          );
          reportLine(
            `history-crash/${engine}: ${CYCLES[engine]} SIGKILL cycles, ${figure(answered)} writes answered, ${failedConnections} cut by a kill, ${figure(entries)} history entries; ` +
              `${check.createdWithoutEntry + check.deletedWithoutEntry} changes without history, ${check.entriesWithoutRecord + check.deletedEntriesWithoutDeletion} history without a change, ` +
              `${check.listMismatches} list mismatches, ${check.seqGaps} seq gaps, ${check.badHashes} bad hashes; refused ${JSON.stringify(otherStatuses)} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
          );
          if (refusals.length > 0) reportLine(`history-crash/${engine}: first refusals: ${refusals.join(' | ')}`);
          expect(answered, 'writes answered').toBeGreaterThan(CYCLES[engine]);
          // Every write is valid; only a delete of a price a replace removed first may find nothing (404).
          expect(Object.keys(otherStatuses).filter((status) => status !== '404')).toEqual([]);
          // Every cycle commits some writes: bulk creates of 100 and 200 among them.
          expect(entries).toBeGreaterThan(200);
          expect(check).toEqual({
            createdWithoutEntry: 0,
            entriesWithoutRecord: 0,
            deletedWithoutEntry: 0,
            deletedEntriesWithoutDeletion: 0,
            listMismatches: 0,
            duplicated: 0,
            seqGaps: 0,
            badHashes: 0,
          });
          // `pricebook history verify`'s own check agrees: the chain and every kept price hold.
          const verifier = new ChainVerifier(new KyselyUnitOfWork(database), { key: undefined });
          expect((await verifier.verify(store.id)).broken, 'history verify').toEqual([]);

          // Negative control: a trade price deleted behind the API's back, a history entry removed, an entry's `after` edited.
          const { db } = database;
          const victim = await db.selectFrom('trade_prices').select('id').where('store_id', '=', store.id).orderBy('id').limit(1).executeTakeFirstOrThrow();
          await db.deleteFrom('trade_prices').where('id', '=', victim.id).execute();
          const middle = Math.floor(entries / 2);
          await db.deleteFrom('price_history').where('store_id', '=', store.id).where('seq', '=', middle).execute();
          await db
            .updateTable('price_history')
            .set({ after: '{"edited":true}' })
            .where('store_id', '=', store.id)
            .where('seq', '=', middle + 5)
            .execute();
          const damaged = await checkHistory(database, store.id);
          expect(damaged.entriesWithoutRecord, 'the deleted price: its entry has no record').toBeGreaterThanOrEqual(1);
          expect(damaged.seqGaps).toBe(1);
          // The removed entry breaks the link of the next one; the edited entry's own hash no longer holds.
          expect(damaged.badHashes).toBe(2);
          // And verify names each of the three: the price gone, the entry missing, the entry edited.
          const problems = (await verifier.verify(store.id)).broken.map((found) => found.problem);
          expect(problems).toEqual(expect.arrayContaining(['removed', 'edited']));
          expect(problems.filter((problem) => problem === 'removed').length).toBeGreaterThanOrEqual(2);
        } finally {
          await database.close();
        }
      } finally {
        await instance?.kill();
        await postgres?.drop();
        tls.remove();
      }
    },
    strength(300_000, 1_800_000),
  );
});

interface Row {
  seq: number;
  resource: HistoryResource;
  resourceId: number;
  change: HistoryChange;
}

/** Reads the store's records and history straight from the database and counts every disagreement. */
async function checkHistory(database: Database, storeId: number): Promise<HistoryCheck> {
  const { db } = database;
  const ids = async (table: 'trade_prices' | 'trade_prices_deleted' | 'price_list_prices' | 'price_list_prices_deleted' | 'price_lists') =>
    new Set((await db.selectFrom(table).select('id').where('store_id', '=', storeId).execute()).map((row) => Number(row.id)));
  const history = await db.selectFrom('price_history').selectAll().where('store_id', '=', storeId).orderBy('seq').execute();
  const rows: Row[] = history.map((row) => ({
    seq: Number(row.seq),
    resource: row.resource as HistoryResource,
    resourceId: Number(row.resource_id),
    change: row.change as HistoryChange,
  }));

  const check: HistoryCheck = {
    createdWithoutEntry: 0,
    entriesWithoutRecord: 0,
    deletedWithoutEntry: 0,
    deletedEntriesWithoutDeletion: 0,
    listMismatches: 0,
    duplicated: 0,
    seqGaps: 0,
    badHashes: 0,
  };
  for (const [resource, live, deleted] of [
    ['trade_price', await ids('trade_prices'), await ids('trade_prices_deleted')],
    ['price_list_entry', await ids('price_list_prices'), await ids('price_list_prices_deleted')],
  ] as const) {
    const created = new Map<number, number>();
    const gone = new Map<number, number>();
    for (const row of rows.filter((entry) => entry.resource === resource)) {
      const counts = row.change === 'created' ? created : gone;
      counts.set(row.resourceId, (counts.get(row.resourceId) ?? 0) + 1);
    }
    for (const id of [...live, ...deleted]) if (!created.has(id)) check.createdWithoutEntry += 1;
    for (const id of created.keys()) if (!live.has(id) && !deleted.has(id)) check.entriesWithoutRecord += 1;
    for (const id of deleted) if (!gone.has(id)) check.deletedWithoutEntry += 1;
    for (const id of gone.keys()) if (!deleted.has(id)) check.deletedEntriesWithoutDeletion += 1;
    for (const counts of [created, gone]) for (const count of counts.values()) if (count > 1) check.duplicated += count - 1;
  }

  // Lists: the last entry of each says whether it exists; every live list has one.
  const lists = await ids('price_lists');
  const lastOfList = new Map<number, HistoryChange>();
  for (const row of rows) if (row.resource === 'price_list') lastOfList.set(row.resourceId, row.change);
  for (const id of lists) if (lastOfList.get(id) === undefined || lastOfList.get(id) === 'deleted') check.listMismatches += 1;
  for (const [id, change] of lastOfList) if (change !== 'deleted' && !lists.has(id)) check.listMismatches += 1;

  // The chain: 1..head without gaps, each hash over its predecessor's.
  const head = await db.selectFrom('price_history_heads').select(['seq', 'hash']).where('store_id', '=', storeId).executeTakeFirst();
  const last = head === undefined ? 0 : Number(head.seq);
  const present = new Set(rows.map((row) => row.seq));
  for (let seq = 1; seq <= last; seq++) if (!present.has(seq)) check.seqGaps += 1;
  let prevHash = GENESIS_HASH;
  for (const row of history) {
    const hash = chainHash(row.prev_hash, {
      storeId: Number(row.store_id),
      seq: Number(row.seq),
      at: row.at,
      resource: row.resource as HistoryResource,
      resourceId: Number(row.resource_id),
      change: row.change as HistoryChange,
      before: row.before,
      after: row.after,
      customerId: row.customer_id === null ? null : Number(row.customer_id),
      productId: row.product_id === null ? null : Number(row.product_id),
      priceListId: row.price_list_id === null ? null : Number(row.price_list_id),
      sku: row.sku,
      actor: { type: row.actor_type as 'key' | 'staff', id: Number(row.actor_id), name: row.actor_name },
      source: row.source as ChangeSource,
      sourceId: row.source_id === null ? null : Number(row.source_id),
      requestId: row.request_id,
    });
    if (row.prev_hash !== prevHash || row.hash !== hash) check.badHashes += 1;
    prevHash = row.hash;
  }
  if (head !== undefined && head.hash !== prevHash) check.badHashes += 1;
  return check;
}
