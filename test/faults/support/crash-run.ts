import path from 'node:path';
import { buildServices } from '../../../src/app/services.js';
import { parseConfig } from '../../../src/config/config.js';
import { type Database, openDatabase } from '../../../src/storage/database.js';
import { createPostgresDatabase, type EngineName } from '../../support/engines.js';
import { type Instance, startInstance, tlsFiles } from '../../support/instance-process.js';
import type { HttpResponse } from '../../support/test-server.js';
import { buildFaultServer } from './fault-server-build.js';
import { BATCH_SIZE, type CrashCheck, checkCrashRun, digestOf, type IdDigest, idempotencyKeyOf, priceUnitsOf } from './crash-check.js';
import { figure, seededRandom } from './report.js';

const BULK = '/v1/trade-customer-product-prices/bulk';
const SKU = 'CRASH-SKU';

export interface CrashRunOptions {
  engine: EngineName;
  /** SIGKILL-and-restart cycles, at most. */
  cycles: number;
  /**
   * No further cycle starts once this much time (ms) has gone since the start, provided
   * `minCycles` have run: a slow machine kills fewer times instead of running past the test's
   * limit. Without it, every cycle runs.
   */
  budgetMs?: number;
  /** Cycles that run whatever the budget (default 1). */
  minCycles?: number;
  /** Bulk requests in flight at once. */
  concurrency: number;
  /** Each cycle's load lasts a random time in this range (ms) before the SIGKILL (after the cycle's first answer, with `killAfterFirstAnswer`). */
  killAfterMs: readonly [number, number];
  /**
   * The range counts from the cycle's first 201, not from the start of its load: a kill within
   * the planted fault's delay of an answer then always loses that batch, however slowly the
   * server started (at most a minute is waited for it).
   */
  killAfterFirstAnswer?: boolean;
  seed: number;
  /** The negative control: the test-only fault server, planting `ack-before-commit` (planted-faults.ts). */
  ackBeforeCommit?: boolean;
  /** Retry the batches left unanswered by a kill after the last restart (default true). */
  retryUnanswered?: boolean;
  /** Runs on the database after the last stop, before the check (the controls damage it on purpose). */
  beforeCheck?: (database: Database, storeId: number) => Promise<void>;
}

export interface CrashRun {
  /** Cycles run (fewer than asked when the budget ran out). */
  cycles: number;
  /** The budget stopped the cycles before `options.cycles`. */
  stoppedByBudget: boolean;
  /** Bulk requests sent, retries included. */
  requests: number;
  /** Batches answered 201 (during the cycles, or on the retry after the last restart). */
  acked: number;
  /** Batches whose answer the client never got (killed mid-request), retried after the last restart with their key. */
  retried: number;
  /** Of those, how many the server replayed (the first attempt had committed). */
  replayedOnRetry: number;
  /** Answers other than 201 and connection errors, by status (5xx would be defects). */
  otherStatuses: Record<string, number>;
  /** 201 answers whose records were not the items sent, in order. */
  wrongAnswers: number;
  /** Batches still without an answer after the retry (should be 0). */
  unansweredAfterRetry: number;
  check: CrashCheck;
  elapsedMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Concurrent 1000-item bulk creates, each with an Idempotency-Key, against a real
 * `pricebook serve` (for the control, the same server from fault-server.ts) that is killed
 * with SIGKILL at a random moment and restarted, `cycles` times; then unanswered batches are
 * retried with their keys (as a client would) and the database is read back directly.
 */
export async function runCrashCycles(options: CrashRunOptions): Promise<CrashRun> {
  const started = Date.now();
  const random = seededRandom(options.seed);
  // The real CLI, or the same server with the fault planted (a test-only entry point).
  const command = options.ackBeforeCommit === true ? [await buildFaultServer(), 'ack-before-commit'] : undefined;
  const tls = await tlsFiles();
  const postgres = options.engine === 'postgres' ? await createPostgresDatabase() : undefined;
  const dataDir = path.join(tls.dir, 'data');
  const storage = { PRICEBOOK_DATA_DIR: dataDir, ...(postgres && { DATABASE_URL: postgres.url }) };
  const env = {
    ...storage,
    PRICEBOOK_RATE_LIMIT_BUCKET: '1000000',
    PRICEBOOK_RATE_LIMIT_LEAK: '100000',
    PRICEBOOK_AUTH_FAILURE_BUCKET: '100000',
    // The fault delays every write transaction, the delivery worker's too, which would hold SQLite's one connection between requests.
    ...(options.ackBeforeCommit === true && { PRICEBOOK_WEBHOOK_WORKER: '0' }),
  };
  let instance: Instance | undefined;
  try {
    const setup = await buildServices(parseConfig({ ...storage, PRICEBOOK_DEMO: '0', PRICEBOOK_LOG_LEVEL: 'silent' }), { poolSize: 1 });
    const store = await setup.credentials.createStore('Crash store');
    const { token } = await setup.credentials.issueKey(store.id);
    await setup.close();

    instance = await startInstance({ name: 'crash', env, tls, connections: options.concurrency + 2, command });
    const customer = await instance.request('POST', '/v1/customers', { token, body: { email: 'crash@example.com', trade: true } });
    const product = await instance.request('POST', '/v1/products', { token, body: { title: 'Crash', sku: SKU, price: 1 } });
    if (customer.status !== 201 || product.status !== 201) throw new Error(`catalog setup failed: ${customer.text} ${product.text}`);
    const customerId = (customer.body as { id: number }).id;
    const productId = (product.body as { id: number }).id;

    const bodies = new Map<number, string>();
    const bodyOf = (batch: number) => {
      let body = bodies.get(batch);
      if (body === undefined) {
        body = JSON.stringify(
          Array.from({ length: BATCH_SIZE }, (_, item) => ({ customerId, productId, sku: SKU, price: priceUnitsOf(batch, item) / 10_000 })),
        );
        bodies.set(batch, body);
      }
      return body;
    };
    const acked = new Map<number, IdDigest>();
    const unanswered: number[] = [];
    const otherStatuses: Record<string, number> = {};
    let requests = 0;
    let wrongAnswers = 0;
    let nextBatch = 1;
    /** Told of each 201 (a cycle waiting for its first answer). */
    let onAnswer: (() => void) | undefined;

    /** Sends one batch; its answer, or undefined when the connection died first. */
    const send = async (target: Instance, batch: number): Promise<HttpResponse | undefined> => {
      requests += 1;
      let response: HttpResponse;
      try {
        response = await target.request('POST', BULK, {
          token,
          rawBody: bodyOf(batch),
          headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKeyOf(batch) },
        });
      } catch {
        unanswered.push(batch);
        return undefined;
      }
      if (response.status !== 201) {
        otherStatuses[response.status] = (otherStatuses[response.status] ?? 0) + 1;
        unanswered.push(batch);
        return response;
      }
      const records = Array.isArray(response.body) ? (response.body as Array<{ id: number; price: number }>) : [];
      if (records.length !== BATCH_SIZE || records.some((record, item) => Math.round(record.price * 10_000) !== priceUnitsOf(batch, item))) wrongAnswers += 1;
      acked.set(batch, digestOf(records.map((record) => record.id)));
      bodies.delete(batch);
      onAnswer?.();
      return response;
    };

    const budgetSpent = (cycle: number) => options.budgetMs !== undefined && cycle > (options.minCycles ?? 1) && Date.now() - started >= options.budgetMs;
    let cycles = 0;
    for (let cycle = 1; cycle <= options.cycles && !budgetSpent(cycle); cycle++) {
      cycles = cycle;
      if (cycle > 1) instance = await startInstance({ name: 'crash', env, tls, connections: options.concurrency + 2, command });
      const target = instance;
      let loading = true;
      const workers = Array.from({ length: options.concurrency }, async () => {
        while (loading) await send(target, nextBatch++);
      });
      if (options.killAfterFirstAnswer === true) {
        await Promise.race([new Promise<void>((resolve) => (onAnswer = resolve)), sleep(60_000)]);
        onAnswer = undefined;
      }
      const [low, high] = options.killAfterMs;
      await sleep(low + random() * (high - low));
      loading = false;
      await target.kill();
      await Promise.all(workers);
    }

    // The last restart: what a client does with the requests it never got an answer to.
    instance = await startInstance({ name: 'crash', env, tls, connections: options.concurrency + 2, command });
    const retries = options.retryUnanswered === false ? [] : unanswered.splice(0);
    let replayedOnRetry = 0;
    for (const batch of retries) {
      const response = await send(instance, batch);
      if (response?.headers['idempotent-replayed'] === 'true') replayedOnRetry += 1;
    }
    // The control's last commits are still waiting out their delay.
    if (options.ackBeforeCommit === true) await sleep(1500);
    await instance.stop();
    instance = undefined;

    const database = await openDatabase({ databaseUrl: postgres?.url, dataDir, poolSize: 1 });
    try {
      await options.beforeCheck?.(database, store.id);
      return {
        cycles,
        stoppedByBudget: cycles < options.cycles,
        requests,
        acked: acked.size,
        retried: retries.length,
        replayedOnRetry,
        otherStatuses,
        wrongAnswers,
        unansweredAfterRetry: options.retryUnanswered === false ? 0 : unanswered.length,
        check: await checkCrashRun(database, store.id, acked),
        elapsedMs: Date.now() - started,
      };
    } finally {
      await database.close();
    }
  } finally {
    await instance?.kill();
    await postgres?.drop();
    tls.remove();
  }
}

/** The report line of a run of crash cycles. */
export function crashSummary(name: string, run: CrashRun): string {
  const { check } = run;
  return (
    `${name}: ${run.cycles} SIGKILL cycles${run.stoppedByBudget ? ' (the time budget stopped further ones)' : ''}, ${figure(run.acked)} acked batches (${figure(run.acked * 1000)} rows; ${run.retried} left unanswered by a kill and retried with their key, ${run.replayedOnRetry} of them replayed), ` +
    `${check.lost} lost, ${check.partial} partial, ${check.duplicated} duplicated, ${check.answerMismatches} answered ids not stored, ` +
    `${check.keysWithoutRecords + check.recordsWithoutKey + check.badKeys} key/record mismatches, ${check.eventsMissing + check.orphanEvents} event mismatches, ` +
    `integrity ${check.integrity} (${(run.elapsedMs / 1000).toFixed(0)} s)`
  );
}
