import type { ClaimedDelivery } from './delivery-queue.js';

/**
 * A worker's claimed deliveries: those waiting, per webhook in claim order, and the count in
 * flight. Hands out work round-robin over webhooks, never more than `concurrency` requests in
 * flight nor `perWebhook` to one webhook, so a slow receiver holds at most its own slots.
 */
export class SendSlots {
  private readonly waiting = new Map<number, ClaimedDelivery[]>();
  private readonly inFlightByWebhook = new Map<number, number>();
  private waitingCount = 0;
  private inFlightCount = 0;

  constructor(
    private readonly concurrency: number,
    private readonly perWebhook: number,
  ) {}

  /** Deliveries leased by this worker: waiting or in flight. */
  get held(): number {
    return this.waitingCount + this.inFlightCount;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Deliveries of this webhook waiting to be sent. */
  waitingFor(webhookId: number): number {
    return this.waiting.get(webhookId)?.length ?? 0;
  }

  add(deliveries: readonly ClaimedDelivery[]): void {
    for (const delivery of deliveries) {
      const queue = this.waiting.get(delivery.webhook.id);
      if (queue === undefined) this.waiting.set(delivery.webhook.id, [delivery]);
      else queue.push(delivery);
      this.waitingCount += 1;
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
    while (progress && this.inFlightCount < this.concurrency) {
      progress = false;
      for (const [webhookId, queue] of [...this.waiting]) {
        if (this.inFlightCount >= this.concurrency) break;
        if ((this.inFlightByWebhook.get(webhookId) ?? 0) >= this.perWebhook) continue;
        const next = queue.shift();
        if (next !== undefined) {
          this.waitingCount -= 1;
          progress = true;
          if (next.leaseUntil >= leaseNeededUntil) {
            taken.push(next);
            this.inFlightCount += 1;
            this.inFlightByWebhook.set(webhookId, (this.inFlightByWebhook.get(webhookId) ?? 0) + 1);
          }
        }
        // Moved to the back: the next pick starts with another webhook.
        this.waiting.delete(webhookId);
        if (queue.length > 0) this.waiting.set(webhookId, queue);
      }
    }
    return taken;
  }

  /** A request ended. */
  done(webhookId: number): void {
    this.inFlightCount -= 1;
    const left = (this.inFlightByWebhook.get(webhookId) ?? 1) - 1;
    if (left <= 0) this.inFlightByWebhook.delete(webhookId);
    else this.inFlightByWebhook.set(webhookId, left);
  }

  /** Empties the waiting lists (on stop) and returns what they held. */
  drain(): ClaimedDelivery[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.waitingCount = 0;
    return all;
  }
}
