import type { ClaimedDelivery } from './delivery-queue.js';

export interface SendLimits {
  /** Requests in flight at once, in total. */
  concurrency: number;
  /** Requests in flight to one webhook at once. */
  perWebhook: number;
  /** Requests in flight for one store's webhooks at once. */
  perStore: number;
}

/**
 * A worker's claimed deliveries: those waiting, per store and webhook in claim order, and the
 * counts in flight. Hands out work round-robin over stores, and within a store over its
 * webhooks, never more than `concurrency` requests in flight, `perStore` for one store nor
 * `perWebhook` to one webhook: a slow receiver holds at most its own slots, and one store's
 * slow receivers at most their store's.
 */
export class SendSlots {
  /** Store → webhook → deliveries; map order is the rotation order (the next pick starts at the front). */
  private readonly waiting = new Map<number, Map<number, ClaimedDelivery[]>>();
  private readonly inFlightByWebhook = new Map<number, number>();
  private readonly inFlightByStore = new Map<number, number>();
  private readonly heldByStore = new Map<number, number>();
  private waitingCount = 0;
  private inFlightCount = 0;

  constructor(private readonly limits: SendLimits) {}

  /** Deliveries leased by this worker: waiting or in flight. */
  get held(): number {
    return this.waitingCount + this.inFlightCount;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Deliveries of this webhook waiting to be sent. */
  waitingFor(storeId: number, webhookId: number): number {
    return this.waiting.get(storeId)?.get(webhookId)?.length ?? 0;
  }

  /** Deliveries of this store's webhooks held (waiting or in flight), by store. */
  heldPerStore(): ReadonlyMap<number, number> {
    return this.heldByStore;
  }

  add(deliveries: readonly ClaimedDelivery[]): void {
    for (const delivery of deliveries) {
      const storeId = delivery.event.storeId;
      let webhooks = this.waiting.get(storeId);
      if (webhooks === undefined) this.waiting.set(storeId, (webhooks = new Map()));
      const queue = webhooks.get(delivery.webhook.id);
      if (queue === undefined) webhooks.set(delivery.webhook.id, [delivery]);
      else queue.push(delivery);
      this.waitingCount += 1;
      increment(this.heldByStore, storeId, 1);
    }
  }

  /**
   * The deliveries to send now, counted in flight from here on. One whose lease ends before
   * `leaseNeededUntil` is dropped instead: its request could outlast the lease, and then
   * another worker could send it at the same time. It is sent again once the lease expires.
   */
  take(leaseNeededUntil: number): ClaimedDelivery[] {
    const taken: ClaimedDelivery[] = [];
    let progress = true;
    // Each pass takes at most one delivery per store; a pass without one ends the loop.
    while (progress && this.inFlightCount < this.limits.concurrency) {
      progress = false;
      for (const [storeId, webhooks] of [...this.waiting]) {
        if (this.inFlightCount >= this.limits.concurrency) break;
        if ((this.inFlightByStore.get(storeId) ?? 0) >= this.limits.perStore) continue;
        const next = this.nextOf(webhooks);
        if (next !== undefined) {
          progress = true;
          this.waitingCount -= 1;
          if (next.leaseUntil >= leaseNeededUntil) {
            taken.push(next);
            this.inFlightCount += 1;
            increment(this.inFlightByStore, storeId, 1);
            increment(this.inFlightByWebhook, next.webhook.id, 1);
          } else {
            increment(this.heldByStore, storeId, -1);
          }
        }
        // Moved to the back: the next pick starts with another store.
        this.waiting.delete(storeId);
        if (webhooks.size > 0) this.waiting.set(storeId, webhooks);
      }
    }
    return taken;
  }

  /** A request ended. */
  done(delivery: ClaimedDelivery): void {
    this.inFlightCount -= 1;
    increment(this.inFlightByWebhook, delivery.webhook.id, -1);
    increment(this.inFlightByStore, delivery.event.storeId, -1);
    increment(this.heldByStore, delivery.event.storeId, -1);
  }

  /** Empties the waiting lists (on stop) and returns what they held. */
  drain(): ClaimedDelivery[] {
    const all = [...this.waiting.values()].flatMap((webhooks) => [...webhooks.values()].flat());
    for (const delivery of all) increment(this.heldByStore, delivery.event.storeId, -1);
    this.waiting.clear();
    this.waitingCount = 0;
    return all;
  }

  /** The next delivery of a store's webhooks, round-robin over the webhooks with a free slot. */
  private nextOf(webhooks: Map<number, ClaimedDelivery[]>): ClaimedDelivery | undefined {
    for (const [webhookId, queue] of webhooks) {
      if ((this.inFlightByWebhook.get(webhookId) ?? 0) >= this.limits.perWebhook) continue;
      const next = queue.shift();
      webhooks.delete(webhookId);
      if (queue.length > 0) webhooks.set(webhookId, queue);
      if (next !== undefined) return next;
    }
    return undefined;
  }
}

/** Adds `by` to a count, dropping it at zero so the maps only hold what is live. */
function increment(counts: Map<number, number>, key: number, by: number): void {
  const value = (counts.get(key) ?? 0) + by;
  if (value <= 0) counts.delete(key);
  else counts.set(key, value);
}
