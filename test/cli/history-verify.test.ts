import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokenHistory, parseHead, type VerifyLine, verifyHistory } from '../../src/main/history-verify.js';
import { chainHash } from '../../src/modules/history/history-chain.js';
import type { ChangeOrigin, HistoryEntry, HistoryRecord } from '../../src/modules/history/history-entry.js';
import type { ChainHead } from '../../src/modules/history/history-repository.js';
import { runCli } from '../support/cli-process.js';
import { enginesUnderTest } from '../support/engines.js';
import { type Tamperer, tampererOf } from '../support/history-tamper.js';
import { suiteServer } from '../support/suite-server.js';

const ORIGIN: ChangeOrigin = { actor: { type: 'key', id: 3, name: 'erp' }, source: 'api', sourceId: null, requestId: 'req-9' };
/** A percentage list's creation: an entry of the chain alone (lists have no table of kept records that verify compares with it). */
const listRecord = (id: number, percentage: number): HistoryRecord => ({
  resource: 'price_list',
  resourceId: id,
  change: 'created',
  before: null,
  after: { id, name: 'Trade', kind: 'percentage', percentage, policy: 'first', rounding: null, createdAt: '2026-03-01T09:00:00.000Z' },
  customerId: null,
  productId: null,
  priceListId: id,
  sku: null,
});

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

  /** A store with a history of `count` price lists created, one entry each. */
  const tokens = new Map<number, string>();
  const tenantToken = (storeId: number) => tokens.get(storeId)!;
  const storeWithHistory = async (count: number) => {
    const { storeId, token } = await suite.server.createTenant();
    tokens.set(storeId, token);
    for (let index = 1; index <= count; index++) {
      await suite.server.services.uow.transaction(async (repos) => {
        await repos.history.lockChain(storeId);
        await repos.history.append(storeId, `2026-03-0${index}T09:00:00.000Z`, ORIGIN, [listRecord(100 + index, index)]);
      });
    }
    return storeId;
  };
  const verify = async (storeId?: number, extra: string[] = []) => {
    const run = await runCli(['history', 'verify', ...(storeId === undefined ? [] : ['--store', String(storeId)]), ...extra], env);
    const lines = run.stdout
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as VerifyLine);
    return { ...run, lines };
  };
  /**
   * The same check in this process, as the command runs it (`verifyHistory`): what it would
   * print, its exit code and its message. The CLI's own tests (flags, exit codes) run it as a
   * process; the rest need not start one each.
   */
  const check = async (storeId: number, anchors?: ReadonlyMap<number, ChainHead[]>) => {
    const printed: string[] = [];
    const output = { stdout: { write: (text: string) => printed.push(text) > 0 }, stderr: { write: () => true } };
    let code = 0;
    let stderr = '';
    try {
      await verifyHistory(suite.server.services, { key: undefined, storeId, ...(anchors !== undefined && { anchors }) }, output);
    } catch (error) {
      if (!(error instanceof BrokenHistory)) throw error;
      code = 1;
      stderr = `pricebook: ${error.message}\n`;
    }
    const lines = printed
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as VerifyLine);
    return { code, stderr, lines };
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
    expect(line).toEqual({
      storeId: first,
      entries: 3,
      records: 0,
      head: { seq: 3, hash: (await entry(first, 3)).hash },
      checkpoint: null,
      anchors: 0,
      ok: true,
    });
    expect(all.lines.find((candidate) => candidate.storeId === empty)).toEqual({
      storeId: empty,
      entries: 0,
      records: 0,
      head: null,
      checkpoint: null,
      anchors: 0,
      ok: true,
    });

    const one = await verify(first);
    expect(one.code).toBe(0);
    expect(one.lines).toEqual([line]);
    const unknown = await runCli(['history', 'verify', '--store', '999999'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('pricebook: no store 999999\n');
    expect((await runCli(['history', 'verify', '--store', 'x'], env)).code).toBe(2);
  });

  /** A store with a customer's three trade prices (6.66, 7, 8), the first deleted since: the API's own history. */
  const storeWithPrices = async () => {
    const tenant = await suite.server.createTenant();
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await suite.server.request(method, path, { token: tenant.token, body });
      expect(response.status, response.text).toBeLessThan(300);
      return response.body as { id: number } & Array<{ id: number }>;
    };
    const customer = await call('POST', '/v1/customers', { email: 'c@example.com', trade: true });
    const product = await call('POST', '/v1/products', { title: 'Tee', sku: 'TEE', price: 10 });
    const prices = await call(
      'POST',
      '/v1/trade-customer-product-prices/bulk',
      [6.66, 7, 8].map((price) => ({ customerId: customer.id, productId: product.id, sku: 'TEE', price })),
    );
    await call('DELETE', `/v1/trade-customer-product-prices/${prices[0]!.id}`);
    return { tenant, deleted: prices[0]!.id, live: prices[1]!.id };
  };

  it('verifies a history the API wrote, and names the row edited in it', async () => {
    const { tenant, deleted } = await storeWithPrices();
    const held = await check(tenant.storeId);
    expect(held.code, held.stderr).toBe(0);
    // Three prices created and one deleted: three rows (two live, one deleted) checked against their entries.
    expect(held.lines[0]).toMatchObject({ storeId: tenant.storeId, entries: 6, records: 3, head: { seq: 6 }, ok: true });

    // The deleted price's record said 6.66: someone makes it say 1.5.
    await tamper.run(`update price_history set before = replace(before, '"price":6.66', '"price":1.5') where store_id = ? and seq = 6`, [tenant.storeId]);
    const run = await check(tenant.storeId);
    expect(run.code).toBe(1);
    // Its hash no longer holds, and the deleted row kept for as-of reads no longer matches it: both are said.
    expect(run.lines[0]).toMatchObject({
      broken: [
        { seq: 6, problem: 'edited', detail: 'its hash does not match its content' },
        {
          seq: 6,
          problem: 'edited',
          detail: `trade price ${deleted} in trade_prices_deleted differs from this entry: its price is 6.66 where the entry has 1.5`,
        },
      ],
      brokenCount: 2,
    });
  });

  it('shows its progress on stderr, as the prices commands do', async () => {
    const storeId = await storeWithHistory(3);
    const stdout: string[] = [];
    const stderr: string[] = [];
    const output = { stdout: { write: (text: string) => stdout.push(text) > 0 }, stderr: { write: (text: string) => stderr.push(text) > 0 }, quietMs: 0 };
    await verifyHistory(suite.server.services, { key: undefined, storeId }, output);
    expect(stderr).toEqual([`history verify: store ${storeId}: checking entries, 3/3 (100%)\n`]);
    expect(JSON.parse(stdout.join(''))).toMatchObject({ storeId, entries: 3, ok: true });

    await tamper.run('delete from price_history where store_id = ? and seq = 3', [storeId]);
    await expect(verifyHistory(suite.server.services, { key: undefined, storeId }, output)).rejects.toThrow(BrokenHistory);
  });

  it('names an entry edited behind the API’s back', async () => {
    const storeId = await storeWithHistory(3);
    await tamper.run(`update price_history set after = replace(after, '"percentage":2', '"percentage":0.5') where store_id = ? and seq = 2`, [storeId]);
    const run = await verify(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]).toMatchObject({
      storeId,
      ok: false,
      broken: [{ seq: 2, problem: 'edited', detail: 'its hash does not match its content' }],
      brokenCount: 1,
    });
    expect(run.stderr).toBe(`pricebook: the price history of store ${storeId} is broken at entry 2 (edited): its hash does not match its content\n`);
  });

  it('names an entry edited with its hash made again: the next entry no longer follows it', async () => {
    const storeId = await storeWithHistory(3);
    const second = await entry(storeId, 2);
    const forged = { ...second, actor: { ...second.actor, name: 'someone else' } };
    await tamper.run('update price_history set actor_name = ?, hash = ? where store_id = ? and seq = 2', [
      'someone else',
      chainHash(second.prevHash, forged),
      storeId,
    ]);
    const run = await check(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toMatchObject([{ seq: 3, problem: 'inserted' }]);
  });

  it('names an entry removed, in the middle or at the end', async () => {
    const middle = await storeWithHistory(3);
    await tamper.run('delete from price_history where store_id = ? and seq = 2', [middle]);
    const run = await verify(middle);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toEqual([{ seq: 2, problem: 'removed', detail: 'entry 2 is missing' }]);
    expect(run.stderr).toContain(`store ${middle} is broken at entry 2 (removed)`);

    const end = await storeWithHistory(3);
    await tamper.run('delete from price_history where store_id = ? and seq = 3', [end]);
    const last = await verify(end);
    expect(last.code).toBe(1);
    expect(last.lines[0]!.broken).toEqual([{ seq: 3, problem: 'removed', detail: 'entry 3, the last, is missing' }]);
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
    const run = await check(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toEqual([{ seq: 4, problem: 'inserted', detail: 'past the chain head (seq 3)' }]);
    expect(run.stderr).toContain(`store ${storeId} is broken at entry 4 (inserted)`);
  });

  it('names an entry replaced in the middle: its successor does not follow it', async () => {
    const storeId = await storeWithHistory(3);
    const second = await entry(storeId, 2);
    const forged = { ...second, resourceId: 777 };
    await tamper.run('delete from price_history where store_id = ? and seq = 2', [storeId]);
    await tamper.run(
      `insert into price_history (store_id, seq, at, resource, resource_id, change, before, after, customer_id, product_id, price_list_id, sku, actor_type, actor_id, actor_name, source, source_id, request_id, prev_hash, hash)
       values (?, 2, ?, 'price_list', 777, 'created', null, ?, null, null, 102, null, 'key', 3, 'erp', 'api', null, 'req-9', ?, ?)`,
      [storeId, second.at, second.after, second.prevHash, chainHash(second.prevHash, forged)],
    );
    const run = await check(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toMatchObject([{ seq: 3, problem: 'inserted' }]);
  });

  it('checks the head row: moved back, it names what lies past it', async () => {
    const storeId = await storeWithHistory(3);
    await tamper.run('update price_history_heads set seq = 2 where store_id = ?', [storeId]);
    const run = await check(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]!.broken).toMatchObject([{ seq: 3, problem: 'inserted' }]);
  });

  it('reports every broken store, exits 1 naming the first', async () => {
    const a = await storeWithHistory(2);
    const b = await storeWithHistory(2);
    await tamper.run('delete from price_history where store_id in (?, ?) and seq = 1', [a, b]);
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.lines.filter((line) => line.storeId === a || line.storeId === b).map((line) => line.broken?.[0]?.problem)).toEqual(['removed', 'removed']);
    // The first broken store by id is named (earlier tests left broken stores too).
    expect(run.stderr).toMatch(
      /^pricebook: the price history of store \d+ is broken at entry \d+ \((edited|removed|inserted)\): .+; \d+ other store\(s\) too\n$/,
    );
  });
  it('goes on past a break: every broken entry is reported, not only the first', async () => {
    const storeId = await storeWithHistory(5);
    for (const seq of [2, 4]) await tamper.run(`update price_history set actor_name = 'someone else' where store_id = ? and seq = ?`, [storeId, seq]);
    await tamper.run('delete from price_history where store_id = ? and seq = 5', [storeId]);
    const run = await check(storeId);
    expect(run.code).toBe(1);
    expect(run.lines[0]).toMatchObject({
      entries: 4,
      ok: false,
      broken: [
        { seq: 2, problem: 'edited', detail: 'its hash does not match its content' },
        { seq: 4, problem: 'edited', detail: 'its hash does not match its content' },
        { seq: 5, problem: 'removed', detail: 'entry 5, the last, is missing' },
      ],
      brokenCount: 3,
    });
    expect(run.stderr).toBe(
      `pricebook: the price history of store ${storeId} is broken at entry 2 (edited): its hash does not match its content (and 2 more in it)\n`,
    );
  });

  it('checks the deleted prices that as-of reads use against their entries: an edited one shows, and one taken out', async () => {
    const { tenant, deleted } = await storeWithPrices();
    expect((await check(tenant.storeId)).code).toBe(0);
    // The deleted price said 6.66 when it went: someone makes as-of reads of that time say 1111.
    await tamper.run('update trade_prices_deleted set price = 11110000 where id = ?', [deleted]);
    const edited = await check(tenant.storeId);
    expect(edited.code).toBe(1);
    expect(edited.lines[0]).toMatchObject({
      broken: [
        {
          seq: 6,
          problem: 'edited',
          detail: `trade price ${deleted} in trade_prices_deleted differs from this entry: its price is 1111 where the entry has 6.66`,
        },
      ],
      brokenCount: 1,
    });
    // Taken out, as-of reads before the deletion no longer see it.
    await tamper.run('delete from trade_prices_deleted where id = ?', [deleted]);
    const removed = await check(tenant.storeId);
    expect(removed.lines[0]!.broken).toEqual([
      { seq: 3, problem: 'removed', detail: `trade price ${deleted}, which this entry created, is neither in trade_prices nor in trade_prices_deleted` },
      {
        seq: 6,
        problem: 'removed',
        detail: `trade price ${deleted}, which this entry deleted, is not in trade_prices_deleted (as-of reads before its deletion no longer see it)`,
      },
    ]);
  });

  it('checks the live prices against their entries: one edited, or put in without an entry, shows', async () => {
    const { tenant, live } = await storeWithPrices();
    await tamper.run('update trade_prices set min_quantity = 5 where id = ?', [live]);
    const edited = await check(tenant.storeId);
    expect(edited.code).toBe(1);
    expect(edited.lines[0]!.broken).toEqual([
      { seq: 4, problem: 'edited', detail: `trade price ${live} in trade_prices differs from this entry: its minQuantity is 5 where the entry has 1` },
    ]);
    await tamper.run('update trade_prices set min_quantity = 1 where id = ?', [live]);
    await tamper.run(
      `insert into trade_prices (store_id, customer_id, product_id, sku, price, min_quantity, valid_from, valid_until, created_at)
       select store_id, customer_id, product_id, sku, 10000, 1, null, null, ? from trade_prices where id = ?`,
      [new Date().toISOString(), live],
    );
    const inserted = await check(tenant.storeId);
    expect(inserted.lines[0]!.broken).toEqual([
      {
        seq: null,
        problem: 'inserted',
        detail: expect.stringMatching(/^trade price \d+ is live \(created .+, after the history began\), but no entry records its creation$/),
      },
    ]);
  });

  it('shows a store whose whole chain was deleted while it has prices', async () => {
    const { tenant } = await storeWithPrices();
    await tamper.run('delete from price_history where store_id = ?', [tenant.storeId]);
    await tamper.run('delete from price_history_heads where store_id = ?', [tenant.storeId]);
    const run = await check(tenant.storeId);
    expect(run.code).toBe(1);
    // Two live prices and the deleted one, none with the entry that made or deleted it.
    expect(run.lines[0]).toMatchObject({ entries: 0, head: null, records: 3, ok: false, brokenCount: 3 });
    expect(run.lines[0]!.broken!.map((found) => found.problem)).toEqual(['inserted', 'inserted', 'inserted']);
  });

  it('checks anchors kept elsewhere: a chain cut short, or written again, shows', async () => {
    const storeId = await storeWithHistory(4);
    const head = (await suite.server.request('GET', '/v1/price-history/head', { token: tenantToken(storeId) })).body as {
      seq: number;
      hash: string;
      at: string;
    };
    expect(head).toEqual({ seq: 4, hash: (await entry(storeId, 4)).hash, at: '2026-03-04T09:00:00.000Z' });
    const held = await check(storeId, new Map([[storeId, [parseHead(`${head.seq}:${head.hash}`, 'anchor')]]]));
    expect(held.code, held.stderr).toBe(0);
    expect(held.lines[0]).toMatchObject({ anchors: 1, ok: true });

    // The last two entries taken out and the head put back to entry 2: consistent, but for the anchor.
    const second = await entry(storeId, 2);
    await tamper.run('delete from price_history where store_id = ? and seq > 2', [storeId]);
    await tamper.run('update price_history_heads set seq = 2, hash = ? where store_id = ?', [second.hash, storeId]);
    expect((await check(storeId)).code).toBe(0);
    const cut = await check(storeId, new Map([[storeId, [parseHead(`${head.seq}:${head.hash}`, 'anchor')]]]));
    expect(cut.code).toBe(1);
    expect(cut.lines[0]!.broken).toEqual([
      { seq: 4, problem: 'removed', detail: `the chain ends at entry 2, before the anchor’s entry 4 (hash ${head.hash.slice(0, 12)}…): it was cut short` },
    ]);
    // An anchor at an entry whose hash is not the anchor's: the chain was written again.
    const other = 'f'.repeat(64);
    const rewritten = await check(storeId, new Map([[storeId, [parseHead(`2:${other}`, 'anchor')]]]));
    expect(rewritten.lines[0]!.broken).toEqual([
      { seq: 2, problem: 'edited', detail: 'entry 2’s hash is not the anchor’s (ffffffffffff…): the chain was written again from here or before' },
    ]);
  });

  it('takes anchors from an earlier run’s output, and refuses malformed ones', async () => {
    const storeId = await storeWithHistory(2);
    const earlier = await verify(storeId);
    const file = path.join(suite.server.config.dataDir, `anchors-${storeId}.jsonl`);
    fs.writeFileSync(file, earlier.stdout);
    await suite.server.services.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      await repos.history.append(storeId, '2026-03-09T09:00:00.000Z', ORIGIN, [listRecord(200, 9)]);
    });
    const later = await verify(storeId, ['--anchors', file]);
    expect(later.code, later.stderr).toBe(0);
    expect(later.lines).toMatchObject([{ storeId, entries: 3, anchors: 1, ok: true }]);

    expect((await verify(undefined, ['--expect-head', `1:${'a'.repeat(64)}`])).stderr).toBe("pricebook: --expect-head needs --store: a head is one store's\n");
    const malformed = await verify(storeId, ['--expect-head', '3:abc']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--expect-head must be SEQ:HASH');
    fs.writeFileSync(file, 'not json\n');
    const badFile = await verify(storeId, ['--anchors', file]);
    expect(badFile.code).toBe(2);
    expect(badFile.stderr).toContain(`${file}, line 1 is not JSON`);
    expect((await verify(storeId, ['--anchors', `${file}.missing`])).code).toBe(2);
  });
});
