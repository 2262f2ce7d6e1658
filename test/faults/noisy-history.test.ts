import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMaintenanceLoop, HISTORY_CUT_BATCH } from '../../src/app/maintenance.js';
import { ChainVerifier } from '../../src/modules/history/chain-verifier.js';
import type { ChangeOrigin, HistoryRecord } from '../../src/modules/history/history-entry.js';
import { enginesUnderTest } from '../support/engines.js';
import { HISTORY_KEY } from '../support/history-tamper.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { besideNeighbour, describeNeighbour, expectGoodNeighbour } from './support/noisy-neighbour.js';
import { figure, reportLine } from './support/report.js';

/**
 * A retention cut of store A's price history beside store B's reads (docs/history.md,
 * "Retention and checkpoints"; docs/reliability.md, "Noisy neighbours"): the maintenance loop
 * as `serve` runs it cuts 40 000 entries past the retention, at its bound (1000 entries a
 * transaction holding the store's chain lock, a rest after each, 2 s a turn), leaving a signed
 * checkpoint from which what is left still verifies. B's GET p99 stays under 100 ms, and the
 * loop's own work never takes 50 ms in one stretch.
 */
const ENTRIES = 40_000;
const APPEND_CHUNK = 1000;
const ORIGIN: ChangeOrigin = { actor: { type: 'key', id: 1, name: 'erp' }, source: 'api', sourceId: null, requestId: null };

/** A trade price created on 1 January 2026, as an entry records it. */
function created(id: number): HistoryRecord {
  const after = {
    id,
    customerId: 7,
    productId: 9,
    sku: `OLD-${id % 500}`,
    price: 10 + (id % 100) / 100,
    minQuantity: 1,
    validFrom: null,
    validUntil: null,
    createdAt: '2026-01-01T09:00:00.000Z',
  };
  return { resource: 'trade_price', resourceId: id, change: 'created', before: null, after, customerId: 7, productId: 9, priceListId: null, sku: after.sku };
}

describe.each(await enginesUnderTest())('a price history retention cut beside another store on %s', (engine) => {
  let server: TestServer;
  let storeA: Tenant;
  let storeB: Tenant;

  beforeAll(async () => {
    server = await startTestServer(engine, { PRICEBOOK_HISTORY_RETENTION: '30', PRICEBOOK_HISTORY_KEY: HISTORY_KEY });
    storeA = await server.createTenant();
    storeB = await server.createTenant();
    for (let start = 0; start < ENTRIES; start += APPEND_CHUNK) {
      await server.services.uow.transaction(async (repos) => {
        await repos.history.lockChain(storeA.storeId);
        await repos.history.append(
          storeA.storeId,
          '2026-01-01T09:00:00.000Z',
          ORIGIN,
          Array.from({ length: APPEND_CHUNK }, (_, offset) => created(start + offset + 1)),
        );
      });
    }
  });
  afterAll(() => server.close());

  it(`cuts ${figure(ENTRIES)} entries past the retention, leaving a checkpoint they verify from, without holding up another store`, async () => {
    const loop = buildMaintenanceLoop(server.services, { error: (details, message) => console.error(message, details) });
    const cut = () => loop.purged.get('price history') ?? 0;
    const { figures } = await besideNeighbour(server, storeB, async () => {
      loop.start();
      try {
        // Bounded: 40 000 entries are 20 batches; a minute is many times what they take.
        const deadline = performance.now() + 60_000;
        while (cut() < ENTRIES && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await loop.stop();
      }
    });
    reportLine(
      describeNeighbour(
        `noisy-history/retention/${engine}`,
        `a retention cut of ${figure(cut())} history entries (batches of ${figure(HISTORY_CUT_BATCH)})`,
        figures,
      ),
    );
    expect(cut()).toBe(ENTRIES);
    const checkpoint = await server.services.uow.repos.history.checkpoint(storeA.storeId);
    expect(checkpoint).toMatchObject({ seq: ENTRIES, lastCutAt: '2026-01-01T09:00:00.000Z' });
    const report = await new ChainVerifier(server.services.uow, { key: HISTORY_KEY }).verify(storeA.storeId);
    expect(report).toMatchObject({ entries: 0, head: { seq: ENTRIES }, checkpoint: { seq: ENTRIES } });
    expect(report.broken).toEqual([]);
    expectGoodNeighbour(figures);
  }, 120_000);
});
