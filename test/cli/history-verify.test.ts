import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainHash } from '../../src/modules/history/history-chain.js';
import type { ChangeOrigin, HistoryEntry, HistoryRecord } from '../../src/modules/history/history-entry.js';
import { runCli } from '../support/cli-process.js';
import { enginesUnderTest } from '../support/engines.js';
import { type Tamperer, tampererOf } from '../support/history-tamper.js';
import { suiteServer } from '../support/suite-server.js';

const ORIGIN: ChangeOrigin = { actor: { type: 'key', id: 3, name: 'erp' }, source: 'api', sourceId: null, requestId: 'req-9' };
const priceRecord = (id: number, price: number): HistoryRecord => ({
  resource: 'trade_price',
  resourceId: id,
  change: 'created',
  before: null,
  after: { id, customerId: 5, productId: 3, sku: 'TEE-M', price, minQuantity: 1, validFrom: null, validUntil: null, createdAt: '2026-03-01T09:00:00.000Z' },
  customerId: 5,
  productId: 3,
  priceListId: null,
  sku: 'TEE-M',
});

interface Line {
  storeId: number;
  entries: number;
  head: { seq: number; hash: string } | null;
  checkpoint: { seq: number } | null;
  ok: boolean;
  broken?: { seq: number; problem: string; detail: string };
}

describe.each(await enginesUnderTest())('pricebook history verify on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 0 });
  let tamper: Tamperer;
  let env: Record<string, string>;

  beforeAll(async () => {
    const { config } = suite.server;
    env = config.databaseUrl === undefined ? { PRICEBOOK_DATA_DIR: config.dataDir } : { DATABASE_URL: config.databaseUrl };
    tamper = await tampererOf(engine, config.dataDir, config.databaseUrl);
  });
  afterAll(() => tamper.close());

  /** A store with a history of `count` trade prices created, one entry each. */
  const storeWithHistory = async (count: number) => {
    const { storeId } = await suite.server.createTenant();
    for (let index = 1; index <= count; index++) {
      await suite.server.services.uow.transaction(async (repos) => {
        await repos.history.lockChain(storeId);
        await repos.history.append(storeId, `2026-03-0${index}T09:00:00.000Z`, ORIGIN, [priceRecord(100 + index, index)]);
      });
    }
    return storeId;
  };
  const verify = async (storeId?: number) => {
    const run = await runCli(['history', 'verify', ...(storeId === undefined ? [] : ['--store', String(storeId)])], env);
    const lines = run.stdout
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);
    return { ...run, lines };
  };
  const entry = async (storeId: number, seq: number): Promise<HistoryEntry> => {
    const [found] = await suite.server.services.uow.repos.history.chain(storeId, { seq: seq - 1, id: Number.MAX_SAFE_INTEGER }, 1);
    return found!;
  };

  it('exits 0 and prints each store’s entries and head when every chain holds', async () => {
    const first = await storeWithHistory(3);
    const empty = (await suite.server.createTenant()).storeId;
    const all = await verify();
    expect(all.code, all.stderr).toBe(0);
    const line = all.lines.find((candidate) => candidate.storeId === first);
    expect(line).toEqual({ storeId: first, entries: 3, head: { seq: 3, hash: (await entry(first, 3)).hash }, checkpoint: null, ok: true });
    expect(all.lines.find((candidate) => candidate.storeId === empty)).toEqual({ storeId: empty, entries: 0, head: null, checkpoint: null, ok: true });

    const one = await verify(first);
    expect(one.code).toBe(0);
    expect(one.lines).toEqual([line]);
    const unknown = await runCli(['history', 'verify', '--store', '999999'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('pricebook: no store 999999\n');
    expect((await runCli(['history', 'verify', '--store', 'x'], env)).code).toBe(2);
  });

  it('verifies a history the API wrote, and names the row edited in it', async () => {
    const tenant = await suite.server.createTenant();
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await suite.server.request(method, path, { token: tenant.token, body });
      expect(response.status, response.text).toBeLessThan(300);
      return response.body as { id: number } & Array<{ id: number }>;
    };
    const customer = await call('POST', '/v1/customers', { email: 'c@example.com', trade: true });
    const product = await call('POST', '/v1/products', { title: 'Tee', sku: 'TEE', price: 10 });
    const prices = await call('POST', '/v1/trade-customer-product-prices/bulk', [1, 2, 3].map((price) => ({ customerId: customer.id, productId: product.id, sku: 'TEE', price })));
    await call('DELETE', `/v1/trade-customer-product-prices/${prices[1]!.id}`);
    const held = await verify(tenant.storeId);
    expect(held.code, held.stderr).toBe(0);
    expect(held.lines[0]).toMatchObject({ storeId: tenant.storeId, entries: 6, head: { seq: 6 }, ok: true });

    // The deleted price's record said 2: someone makes it say 1.5.
    await tamper.run(`update price_history set before = replace(before, '"price":2', '"price":1.5') where store_id = ? and seq = 6`, [tenant.storeId]);
    const run = await verify(tenant.storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toEqual({ seq: 6, problem: 'edited', detail: 'its hash does not match its content' });
  });

  it('names an entry edited behind the API’s back', async () => {
    const storeId = await storeWithHistory(3);
    await tamper.run(`update price_history set after = replace(after, '"price":2', '"price":0.5') where store_id = ? and seq = 2`, [storeId]);
    const run = await verify(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]).toMatchObject({ storeId, ok: false, broken: { seq: 2, problem: 'edited', detail: 'its hash does not match its content' } });
    expect(run.stderr).toBe(`pricebook: the price history of store ${storeId} is broken at entry 2 (edited): its hash does not match its content\n`);
  });

  it('names an entry edited with its hash made again: the next entry no longer follows it', async () => {
    const storeId = await storeWithHistory(3);
    const second = await entry(storeId, 2);
    const forged = { ...second, actor: { ...second.actor, name: 'someone else' } };
    await tamper.run('update price_history set actor_name = ?, hash = ? where store_id = ? and seq = 2', ['someone else', chainHash(second.prevHash, forged), storeId]);
    const run = await verify(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toMatchObject({ seq: 3, problem: 'inserted' });
  });

  it('names an entry removed, in the middle or at the end', async () => {
    const middle = await storeWithHistory(3);
    await tamper.run('delete from price_history where store_id = ? and seq = 2', [middle]);
    const run = await verify(middle);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toEqual({ seq: 2, problem: 'removed', detail: 'entry 2 is missing' });
    expect(run.stderr).toContain(`store ${middle} is broken at entry 2 (removed)`);

    const end = await storeWithHistory(3);
    await tamper.run('delete from price_history where store_id = ? and seq = 3', [end]);
    const last = await verify(end);
    expect(last.code).toBe(1);
    expect(last.lines[0]!.broken).toEqual({ seq: 3, problem: 'removed', detail: 'entry 3, the last, is missing' });
  });

  it('names an entry inserted, even with a hash that follows the chain', async () => {
    const storeId = await storeWithHistory(3);
    const third = await entry(storeId, 3);
    const forged = { ...third, seq: 4, resourceId: 999, prevHash: third.hash };
    const hash = chainHash(third.hash, forged);
    await tamper.run(
      `insert into price_history (store_id, seq, at, resource, resource_id, change, before, after, customer_id, product_id, price_list_id, sku, actor_type, actor_id, actor_name, source, source_id, request_id, prev_hash, hash)
       select store_id, 4, at, resource, 999, change, before, after, customer_id, product_id, price_list_id, sku, actor_type, actor_id, actor_name, source, source_id, request_id, ?, ? from price_history where store_id = ? and seq = 3`,
      [third.hash, hash, storeId],
    );
    const run = await verify(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toEqual({ seq: 4, problem: 'inserted', detail: 'past the chain head (seq 3)' });
    expect(run.stderr).toContain(`store ${storeId} is broken at entry 4 (inserted)`);
  });

  it('names an entry replaced in the middle: its successor does not follow it', async () => {
    const storeId = await storeWithHistory(3);
    const second = await entry(storeId, 2);
    const forged = { ...second, resourceId: 777 };
    await tamper.run('delete from price_history where store_id = ? and seq = 2', [storeId]);
    await tamper.run(
      `insert into price_history (store_id, seq, at, resource, resource_id, change, before, after, customer_id, product_id, price_list_id, sku, actor_type, actor_id, actor_name, source, source_id, request_id, prev_hash, hash)
       values (?, 2, ?, 'trade_price', 777, 'created', null, ?, 5, 3, null, 'TEE-M', 'key', 3, 'erp', 'api', null, 'req-9', ?, ?)`,
      [storeId, second.at, second.after, second.prevHash, chainHash(second.prevHash, forged)],
    );
    const run = await verify(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toMatchObject({ seq: 3, problem: 'inserted' });
  });

  it('checks the head row: moved back, it names what lies past it', async () => {
    const storeId = await storeWithHistory(3);
    await tamper.run('update price_history_heads set seq = 2 where store_id = ?', [storeId]);
    const run = await verify(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toMatchObject({ seq: 3, problem: 'inserted' });
  });

  it('reports every broken store, exits 1 naming the first', async () => {
    const a = await storeWithHistory(2);
    const b = await storeWithHistory(2);
    await tamper.run('delete from price_history where store_id in (?, ?) and seq = 1', [a, b]);
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.lines.filter((line) => line.storeId === a || line.storeId === b).map((line) => line.broken?.problem)).toEqual(['removed', 'removed']);
    // The first broken store by id is named (earlier tests left broken stores too).
    expect(run.stderr).toMatch(/^pricebook: the price history of store \d+ is broken at entry \d+ \((edited|removed|inserted)\): .+; \d+ other store\(s\) too\n$/);
  });
});
