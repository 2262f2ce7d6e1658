import { describe, expect, it } from 'vitest';
import type { PriceHistoryEntry } from '../../src/contract/price-history.js';
import { verifyHistory } from '../../src/main/history-verify.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/** An entry read with `fields=id,hash,prevHash`. */
type Entry = Pick<PriceHistoryEntry, 'id' | 'hash' | 'prevHash'>;

const PRICES = '/v1/trade-customer-product-prices';

/**
 * Work that is rolled back (a rehearsal's savepoint, a dry run, a refused request, a failed
 * apply) leaves no trace in the price history: no entry, no gap in the ids, no head moved, so
 * `history verify` holds after every step of ordinary use.
 */
describe.each(await enginesUnderTest())('the price history after work that is rolled back, on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  const call = (method: string, path: string, body?: unknown) =>
    suite.api.request(method, path, { token: suite.tenant.token, ...(body !== undefined && { body }) });
  const upload = (query: string, csv: string) =>
    suite.server.request('POST', `/v1/imports?${query}`, { token: suite.tenant.token, rawBody: csv, headers: { 'content-type': 'text/csv' } });
  const ended = async (id: number) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const current = (await call('GET', `/v1/imports/${id}`)).body as { status: string };
      if (current.status === 'succeeded' || current.status === 'failed' || Date.now() > deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /** Verifies the store's chain as `pricebook history verify --store` does, and reads every entry through the API. */
  async function expectChainHolds(): Promise<Entry[]> {
    const lines: string[] = [];
    const stdout = { write: (text: string) => lines.push(text) > 0 };
    const stderr = { isTTY: false, write: () => true };
    await verifyHistory(suite.server.services, { key: undefined, storeId: suite.tenant.storeId }, { stdout, stderr });
    const report = JSON.parse(lines.join('')) as { ok: boolean; entries: number; head: { seq: number; hash: string } | null };
    expect(report, lines.join('')).toMatchObject({ ok: true });
    const entries: Entry[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (await call('GET', `/v1/price-history?count=100&offset=${offset}&fields=id,hash,prevHash`)).body as Entry[];
      entries.push(...page);
      if (page.length < 100) break;
    }
    const ids = entries.map((entry) => entry.id).reverse();
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
    expect(report.entries).toBe(ids.length);
    expect(report.head?.hash).toBe(entries[0]?.hash);
    return entries;
  }

  it('rehearsals of change-set operations, imports into a set, previews, dry runs, refusals and a failed apply leave no gap', async () => {
    const { catalog } = suite;
    const tee = { customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM };
    const created = await call('POST', `${PRICES}/bulk`, [
      { ...tee, price: 9 },
      { ...tee, price: 8, minQuantity: 10 },
    ]);
    expect(created.status, created.text).toBe(201);
    const [first, second] = created.body as Array<{ id: number }>;
    await expectChainHolds();

    // A draft and two additions, each rehearsed after the operations the set holds.
    const set = (await call('POST', '/v1/change-sets', { name: 'x' })).body as { id: number };
    for (const price of [7, 6]) {
      const added = await call('POST', `/v1/change-sets/${set.id}/operations`, [{ type: 'trade_price.create', ...tee, price }]);
      expect(added.status, added.text).toBe(201);
      await expectChainHolds();
    }
    // An addition the rehearsal refuses: nothing added, nothing recorded.
    const refused = await call('POST', `/v1/change-sets/${set.id}/operations`, [{ type: 'trade_price.delete', id: 999_999 }]);
    expectError(refused, 422, 10);
    await expectChainHolds();

    // A CSV import into the set, and a dry run.
    const csv = `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.teeRedM},5.5\n`;
    const intoSet = await upload(`mode=add&changeSet=${set.id}`, csv);
    expect(intoSet.status, intoSet.text).toBe(202);
    expect(await ended((intoSet.body as { id: number }).id)).toMatchObject({ status: 'succeeded' });
    const dry = await upload('mode=replace&dryRun=true', csv);
    expect(await ended((dry.body as { id: number }).id)).toMatchObject({ status: 'succeeded' });
    await expectChainHolds();

    // A preview (carried out, then undone), a replace's dry run, a refused bulk create.
    expect((await call('GET', `/v1/change-sets/${set.id}/preview`)).status).toBe(200);
    const replaceDry = await call('POST', `${PRICES}/replace`, { customerId: catalog.tradeCustomer, scope: 'customer', prices: [], dryRun: true });
    expect(replaceDry.status, replaceDry.text).toBe(200);
    expectError(
      await call('POST', `${PRICES}/bulk`, [
        { ...tee, price: 5 },
        { ...tee, price: -1 },
      ]),
      422,
      10,
    );
    await expectChainHolds();

    // A set whose apply the book refuses: its record is gone. The apply rolls back; the set is failed.
    const doomed = (await call('POST', '/v1/change-sets', { name: 'y' })).body as { id: number };
    expect(
      (
        await call('POST', `/v1/change-sets/${doomed.id}/operations`, [
          { type: 'trade_price.create', ...tee, price: 4 },
          { type: 'trade_price.delete', id: first!.id },
        ])
      ).status,
    ).toBe(201);
    expect((await call('DELETE', `${PRICES}/${first!.id}`)).status).toBe(204);
    expectError(await call('POST', `/v1/change-sets/${doomed.id}/apply`, {}), 422, 10);
    await expectChainHolds();

    // Then the first set applies, and the chain goes on from where it stood.
    const applied = await call('POST', `/v1/change-sets/${set.id}/apply`, {});
    expect(applied.status, applied.text).toBe(200);
    expect((await call('DELETE', `${PRICES}/${second!.id}`)).status).toBe(204);
    const entries = await expectChainHolds();
    expect(entries.length).toBeGreaterThan(10);
  });
});
