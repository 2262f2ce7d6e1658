import type { Clock } from '../modules/shared/clock.js';
import type { AttemptRecord, AttemptVerdict, ClaimedDelivery, DeliveryQueue } from './delivery-queue.js';
import { verdictAfter } from './retry-policy.js';
import { SendSlots } from './send-slots.js';
import { RECEIVER_TIMEOUT_MS, type AttemptOutcome } from './webhook-sender.js';
import { BackgroundLoop } from '../modules/shared/background-loop.js';
import { longWork } from '../modules/shared/long-work.js';

/** What the worker needs of the sender (tests may count or slow its calls). */
export interface EventSender {
  deliver(url: string, secret: string, event: ClaimedDelivery['event']): Promise<AttemptOutcome>;
}

/** Where the worker reports trouble with its database; pino's logger fits. */
export interface WorkerLog {
  error(details: object, message: string): void;
}

export interface DeliveryWorkerOptions {
  /** Delays in seconds between attempts (`PRICEBOOK_WEBHOOK_RETRY_SCHEDULE`). */
  retryScheduleSeconds: readonly number[];
  /** Requests this worker has in flight at once. */
  concurrency?: number;
  /** Requests this worker has in flight to one webhook at once. */
  perWebhook?: number;
  /** Requests this worker has in flight for one store's webhooks at once. */
  perStore?: number;
  /**
   * Deliveries of one webhook leased at once, by all workers together, sent `perWebhook` at a
   * time. Even at the time limit for each, they are sent well within the lease.
   */
  prefetchPerWebhook?: number;
  /** Deliveries this worker leases at once, waiting and in flight. */
  maxHeld?: number;
  /** Deliveries of one store this worker leases at once: the rest of `maxHeld` stays open to other stores. */
  maxHeldPerStore?: number;
  /** Milliseconds between looks for new events and due retries while idle. */
  pollIntervalMs?: number;
  /** Milliseconds a claimed delivery stays this worker's; a crash delays its deliveries by up to this. */
  leaseMs?: number;
  /** Told the outcome of every attempt as it ends (metrics). */
  onAttempt?: (outcome: AttemptVerdict['kind']) => void;
}

/** Events fanned out per transaction. */
const FAN_OUT_BATCH = 1000;
/** Pause after a database error before trying again, milliseconds. */
const ERROR_PAUSE_MS = 1000;
/**
 * Outcomes are written once this many are waiting, or the oldest has waited this long
 * (milliseconds): one commit for many requests (on SQLite each commit is a disk sync).
 */
const RECORD_BATCH = 64;
const RECORD_DELAY_MS = 50;
/** A request starts only while its lease has this long left: the time limit, and a margin. */
const LEASE_NEEDED_MS = RECEIVER_TIMEOUT_MS + 5_000;

/**
 * The delivery worker: fans new events out into deliveries, leases due deliveries (round-robin
 * over stores), sends them with bounded concurrency (in total, per store and per webhook, so
 * one slow receiver, or one store's many, never holds back the others) and records each outcome. Requests never wait for the database: a finished
 * request starts the next waiting one at once, and outcomes are written in batches. A lease
 * that outlives its worker (a crash) expires and the delivery is sent again: at-least-once.
 */
export class DeliveryWorker {
  private readonly slots: SendSlots;
  private readonly maxHeld: number;
  private readonly maxHeldPerStore: number;
  private readonly perWebhook: number;
  private readonly prefetchPerWebhook: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly requests = new Set<Promise<void>>();
  private finished: AttemptRecord[] = [];
  /** When the oldest unrecorded outcome came in, milliseconds. */
  private firstFinishedAt = 0;
  private readonly loop: BackgroundLoop;
  private nextFanOutAt = 0;
  private nextClaimAt = 0;
  /** A webhook's waiting list ran low: claim before the next poll. */
  private refillWanted = false;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly sender: EventSender,
    private readonly clock: Clock,
    log: WorkerLog,
    private readonly options: DeliveryWorkerOptions,
  ) {
    const perWebhook = options.perWebhook ?? 2;
    const concurrency = options.concurrency ?? 8;
    const perStore = Math.min(options.perStore ?? Math.ceil(concurrency / 2), concurrency);
    this.slots = new SendSlots({ concurrency, perWebhook, perStore });
    this.perWebhook = perWebhook;
    this.prefetchPerWebhook = Math.max(options.prefetchPerWebhook ?? 8, perWebhook);
    this.maxHeld = Math.max(options.maxHeld ?? 64, 2 * concurrency);
    this.maxHeldPerStore = Math.min(options.maxHeldPerStore ?? Math.max(4 * perStore, this.prefetchPerWebhook), this.maxHeld);
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.leaseMs = Math.max(options.leaseMs ?? 30_000, 2 * LEASE_NEEDED_MS);
    this.loop = new BackgroundLoop({
      round: () => this.roundAndRest(),
      log,
      errorMessage: 'webhook delivery worker: database error, retrying',
      errorPauseMs: ERROR_PAUSE_MS,
      afterLastRound: async () => {
        const waiting = this.slots.drain();
        await Promise.allSettled([this.queue.release(waiting), ...this.requests]);
        await this.recordFinished().catch((error: unknown) =>
          log.error({ err: error }, 'webhook delivery worker: outcomes not recorded; they will be sent again'),
        );
      },
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops claiming, hands back what waits, lets the requests in flight end (within the time limit) and records them. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A round, then the rest it asks for (until a request finishes or the worker stops). */
  private async roundAndRest(): Promise<void> {
    const work = longWork();
    const idleMs = await this.round();
    // With more to do at once (a backlog of events to fan out), the next round still waits
    // for the event loop to serve what arrived meanwhile: on SQLite a round's queries never
    // wait, so rounds back to back would hold the loop until the backlog was gone (seconds
    // after a large cascade or import), every other store's requests with it.
    if (idleMs > 0) await this.loop.pause(idleMs);
    else await work.rest();
  }

  /** One round; answers how long to wait before the next (0: there may be more to do at once). */
  private async round(): Promise<number> {
    let now = this.clock.now();
    if (this.finished.length >= RECORD_BATCH || (this.finished.length > 0 && now - this.firstFinishedAt >= RECORD_DELAY_MS)) {
      await this.recordFinished();
      now = this.clock.now();
    }
    let fanned = 0;
    if (now >= this.nextFanOutAt) {
      fanned = await this.queue.fanOut(FAN_OUT_BATCH, now);
      // A full batch means more are waiting: look again at once.
      this.nextFanOutAt = fanned === FAN_OUT_BATCH ? now : now + this.pollIntervalMs;
    }
    let claimed = 0;
    if ((now >= this.nextClaimAt || this.refillWanted) && this.slots.held < this.maxHeld) {
      this.nextClaimAt = now + this.pollIntervalMs;
      this.refillWanted = false;
      const deliveries = await this.queue.claim({
        now,
        limit: this.maxHeld - this.slots.held,
        leasesPerWebhook: this.prefetchPerWebhook,
        heldPerStore: this.maxHeldPerStore,
        heldByStore: this.slots.heldPerStore(),
        leaseMs: this.leaseMs,
        settledIds: this.finished.map((record) => record.delivery.id),
      });
      this.slots.add(deliveries);
      claimed = deliveries.length;
    }
    this.dispatch();
    if (fanned > 0 || claimed > 0 || this.finished.length >= RECORD_BATCH) return 0;
    const recordDue = this.finished.length > 0 ? Math.max(1, this.firstFinishedAt + RECORD_DELAY_MS - this.clock.now()) : Infinity;
    return Math.min(this.pollIntervalMs, recordDue);
  }

  /** Starts every waiting request the limits allow. */
  private dispatch(): void {
    if (!this.loop.running) return;
    for (const delivery of this.slots.take(this.clock.now() + LEASE_NEEDED_MS)) this.send(delivery);
  }

  private send(delivery: ClaimedDelivery): void {
    const request = (async () => {
      const outcome = await this.sender
        .deliver(delivery.webhook.url, delivery.webhook.secret, delivery.event)
        .catch((error: unknown): AttemptOutcome => ({ delivered: false, status: undefined, error: `request failed: ${String(error)}` }));
      const at = this.clock.now();
      if (this.finished.length === 0) this.firstFinishedAt = at;
      const verdict = verdictAfter(delivery.attempts + 1, outcome, this.options.retryScheduleSeconds, at);
      this.options.onAttempt?.(verdict.kind);
      this.finished.push({
        delivery,
        verdict,
        at,
        httpStatus: outcome.status,
        error: outcome.delivered ? undefined : outcome.error,
      });
    })().finally(() => {
      this.requests.delete(request);
      this.slots.done(delivery);
      this.dispatch();
      // A webhook with little left waiting is refilled before its requests run dry, not at the next poll.
      if (this.slots.waitingFor(delivery.event.storeId, delivery.webhook.id) < this.perWebhook) this.refillWanted = true;
      if (this.refillWanted || this.finished.length >= RECORD_BATCH) this.loop.wake();
    });
    this.requests.add(request);
  }

  private async recordFinished(): Promise<void> {
    if (this.finished.length === 0) return;
    const batch = this.finished;
    const firstAt = this.firstFinishedAt;
    this.finished = [];
    try {
      await this.queue.record(batch);
    } catch (error) {
      // Kept for the next round; if the process dies first, the leases expire and the
      // deliveries are sent again.
      this.finished.unshift(...batch);
      this.firstFinishedAt = firstAt;
      throw error;
    }
  }
}
