import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMaintenanceLoop } from '../../src/app/maintenance.js';
import { ConfigError, parseConfig } from '../../src/config/config.js';
import { signCheckpoint } from '../../src/modules/history/checkpoint-signature.js';
import type { ChangeOrigin, HistoryRecord } from '../../src/modules/history/history-entry.js';
import { HistoryRetention } from '../../src/modules/history/history-retention.js';
import { runCli } from '../support/cli-process.js';
import { enginesUnderTest } from '../support/engines.js';
import { HISTORY_KEY, type Tamperer, tampererOf } from '../support/history-tamper.js';
import { suiteServer } from '../support/suite-server.js';

const ORIGIN: ChangeOrigin = { actor: { type: 'key', id: 3, name: 'erp' }, source: 'api', sourceId: null, requestId: null };
const DAY = 24 * 3600_000;

const listRecord = (id: number): HistoryRecord => ({
  resource: 'price_list',
  resourceId: id,
  change: 'created',
  before: null,
  after: { id, name: `List ${id}`, percentage: null },
  customerId: null,
  productId: null,
  priceListId: id,
  sku: null,
});

describe('the history settings', () => {
  it('keeps history for ever unless told, and will not cut without a key to sign with', () => {
    expect(parseConfig({}).historyRetentionDays).toBeUndefined();
    expect(() => parseConfig({ PRICEBOOK_HISTORY_RETENTION: '30' })).toThrow(
      new ConfigError('PRICEBOOK_HISTORY_RETENTION needs PRICEBOOK_HISTORY_KEY: the checkpoint a retention cut leaves is signed with it'),
    );
    expect(() => parseConfig({ PRICEBOOK_HISTORY_KEY: 'short' })).toThrow(ConfigError);
    expect(() => parseConfig({ PRICEBOOK_HISTORY_RETENTION: '0', PRICEBOOK_HISTORY_KEY: HISTORY_KEY })).toThrow(ConfigError);
    expect(parseConfig({ PRICEBOOK_HISTORY_RETENTION: '400', PRICEBOOK_HISTORY_KEY: HISTORY_KEY })).toMatchObject({
      historyRetentionDays: 400,
      historyKey: HISTORY_KEY,
    });
  });
});

describe.each(await enginesUnderTest())('history retention with a signed checkpoint on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 0, env: { PRICEBOOK_HISTORY_RETENTION: '30', PRICEBOOK_HISTORY_KEY: HISTORY_KEY } });
  let tamper: Tamperer;
  let env: Record<string, string>;
  let retention: HistoryRetention;

  beforeAll(async () => {
    const { config } = suite.server;
    env = config.databaseUrl === undefined ? { PRICEBOOK_DATA_DIR: config.dataDir } : { DATABASE_URL: config.databaseUrl };
    tamper = await tampererOf(engine, config.dataDir, config.databaseUrl);
    retention = suite.server.services.historyRetention!;
  });
  afterAll(() => tamper.close());

  /** A store with five entries, one a day from 1 March 2026. */
  const storeWithHistory = async () => {
    const tenant = await suite.server.createTenant();
    for (let day = 1; day <= 5; day++) {
      await suite.server.services.uow.transaction(async (repos) => {
        await repos.history.lockChain(tenant.storeId);
        await repos.history.append(tenant.storeId, `2026-03-0${day}T09:00:00.000Z`, ORIGIN, [listRecord(day)]);
      });
    }
    return tenant;
  };
  const verify = (storeId: number, key = HISTORY_KEY) => runCli(['history', 'verify', '--store', String(storeId)], { ...env, PRICEBOOK_HISTORY_KEY: key });
  /** 30 days after 3 March 10:00: entries of 1–3 March are past the retention period. */
  const NOW = Date.parse('2026-04-02T10:00:00.000Z');

  it('cuts entries older than the period in bounded batches, leaving a signed checkpoint from which what remains verifies', async () => {
    const tenant = await storeWithHistory();
    expect(await retention.cutStore(tenant.storeId, new Date(NOW - 30 * DAY).toISOString(), 2)).toBe(2);
    expect(await retention.cutStore(tenant.storeId, new Date(NOW - 30 * DAY).toISOString(), 2)).toBe(1);
    expect(await retention.cutStore(tenant.storeId, new Date(NOW - 30 * DAY).toISOString(), 2)).toBe(0);

    const checkpoint = await suite.server.services.uow.repos.history.checkpoint(tenant.storeId);
    const third = (await suite.api.request('GET', '/v1/price-history?count=1&offset=1', { token: tenant.token })).body as Array<{
      id: number;
      prevHash: string;
    }>;
    expect(third[0]!.id).toBe(4);
    expect(checkpoint).toEqual({
      storeId: tenant.storeId,
      seq: 3,
      hash: third[0]!.prevHash,
      lastCutAt: '2026-03-03T09:00:00.000Z',
      cutAt: expect.any(String),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const { signature, ...signed } = checkpoint!;
    expect(signature).toBe(signCheckpoint(HISTORY_KEY, signed));

    const listed = await suite.api.request('GET', '/v1/price-history', { token: tenant.token });
    expect((listed.body as Array<{ id: number }>).map((entry) => entry.id)).toEqual([5, 4]);

    const run = await verify(tenant.storeId);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      storeId: tenant.storeId,
      entries: 2,
      records: 0,
      head: { seq: 5, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      checkpoint: { seq: 3, hash: checkpoint!.hash, lastCutAt: '2026-03-03T09:00:00.000Z' },
      anchors: 0,
      ok: true,
    });

    // Without the key the checkpoint cannot be trusted: said so, exit 1. Under another key: broken.
    const keyless = await runCli(['history', 'verify', '--store', String(tenant.storeId)], env);
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain('set PRICEBOOK_HISTORY_KEY');
    const otherKey = await verify(tenant.storeId, 'x'.repeat(40));
    expect(otherKey.code).toBe(1);
    expect(otherKey.stderr).toContain(`store ${tenant.storeId} is broken at entry 3 (edited): the retention checkpoint’s signature does not hold`);
  });

  it('fails when the checkpoint is moved or removed behind the API’s back', async () => {
    const moved = await storeWithHistory();
    await retention.cutStore(moved.storeId, '2026-03-03T00:00:00.000Z', 100);
    await tamper.run('delete from price_history where store_id = ? and seq = 3', [moved.storeId]);
    await tamper.run(
      'update price_history_checkpoints set seq = 3, hash = (select prev_hash from price_history where store_id = ? and seq = 4) where store_id = ?',
      [moved.storeId, moved.storeId],
    );
    const run = await verify(moved.storeId);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`store ${moved.storeId} is broken at entry 3 (edited): the retention checkpoint’s signature does not hold`);

    const removed = await storeWithHistory();
    await retention.cutStore(removed.storeId, '2026-03-03T00:00:00.000Z', 100);
    await tamper.run('delete from price_history_checkpoints where store_id = ?', [removed.storeId]);
    const gone = await verify(removed.storeId);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`store ${removed.storeId} is broken at entry 1 (removed): entries 1 to 2 are missing`);
  });

  it('cuts a whole chain, and appends go on from the head after it', async () => {
    const tenant = await storeWithHistory();
    expect(await retention.cutStore(tenant.storeId, '2027-01-01T00:00:00.000Z', 100)).toBe(5);
    expect((await suite.api.request('GET', '/v1/price-history/count', { token: tenant.token })).body).toEqual({ count: 0 });
    const empty = await verify(tenant.storeId);
    expect(empty.code, empty.stderr).toBe(0);
    expect(JSON.parse(empty.stdout)).toMatchObject({ entries: 0, head: { seq: 5 }, checkpoint: { seq: 5 }, ok: true });

    await suite.server.services.uow.transaction(async (repos) => {
      await repos.history.lockChain(tenant.storeId);
      await repos.history.append(tenant.storeId, '2027-01-02T00:00:00.000Z', ORIGIN, [listRecord(6)]);
    });
    const after = await verify(tenant.storeId);
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({ entries: 1, head: { seq: 6 }, checkpoint: { seq: 5 }, ok: true });
  });

  it('runs in the maintenance loop, which `serve` and `worker` run', async () => {
    const tenant = await storeWithHistory();
    // Today is months after March 2026 for the server's clock: every entry is past 30 days.
    const loop = buildMaintenanceLoop(suite.server.services, { error: (details, message) => console.error(message, details) }, { idleIntervalMs: 50 });
    loop.start();
    try {
      const deadline = Date.now() + 10_000;
      const count = async () => ((await suite.api.request('GET', '/v1/price-history/count', { token: tenant.token })).body as { count: number }).count;
      while ((await count()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await count()).toBe(0);
      expect(loop.purged.get('price history')).toBeGreaterThanOrEqual(5);
    } finally {
      await loop.stop();
    }
    expect((await verify(tenant.storeId)).code).toBe(0);
  });
});

describe.each(await enginesUnderTest())('history retention over several stores on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 2 });

  it('goes on with a store whose backlog filled the batch, before the stores after it', async () => {
    const { uow } = suite.server.services;
    // The first store has five entries of March, past the retention; the second none due.
    for (let day = 1; day <= 5; day++) {
      await uow.transaction(async (repos) => {
        await repos.history.lockChain(suite.tenant.storeId);
        await repos.history.append(suite.tenant.storeId, `2026-03-0${day}T09:00:00.000Z`, ORIGIN, [listRecord(day)]);
      });
    }
    const now = Date.parse('2026-04-10T10:00:00.000Z');
    const retention = new HistoryRetention(uow, { now: () => now }, { retentionMs: 30 * DAY, key: HISTORY_KEY });
    // Batches of 2: a full batch means "more may be due", and the next call must find it.
    expect([await retention.purge(now, 2), await retention.purge(now, 2), await retention.purge(now, 2), await retention.purge(now, 2)]).toEqual([2, 2, 1, 0]);
    expect(await uow.repos.history.checkpoint(suite.tenant.storeId)).toMatchObject({ seq: 5 });
    expect(await uow.repos.history.checkpoint(suite.other.storeId)).toBeUndefined();
  });
});
