import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/contract/events.js';
import type { ClaimedDelivery } from '../../src/webhooks/delivery-queue.js';
import { verdictAfter } from '../../src/webhooks/retry-policy.js';
import { SendSlots } from '../../src/webhooks/send-slots.js';

const failed = (status?: number) => ({ delivered: false as const, status, error: 'failed' });

describe('verdictAfter', () => {
  const schedule = [60, 3600, 7200];

  it('retries after the n-th delay, then gives up after as many attempts as the schedule has entries', () => {
    expect(verdictAfter(1, failed(500), schedule, 1_000)).toEqual({ kind: 'retry', nextAttemptAt: 61_000 });
    expect(verdictAfter(2, failed(undefined), schedule, 1_000)).toEqual({ kind: 'retry', nextAttemptAt: 3_601_000 });
    expect(verdictAfter(3, failed(302), schedule, 1_000)).toEqual({ kind: 'exhausted' });
  });

  it('stops at once on 410 and succeeds on any 2xx', () => {
    expect(verdictAfter(1, failed(410), schedule, 0)).toEqual({ kind: 'gone' });
    expect(verdictAfter(3, { delivered: true, status: 204 }, schedule, 0)).toEqual({ kind: 'delivered' });
  });

  it('takes fractional delays in seconds', () => {
    expect(verdictAfter(1, failed(500), [0.2], 0)).toEqual({ kind: 'exhausted' });
    expect(verdictAfter(1, failed(500), [0.2, 0.2], 0)).toEqual({ kind: 'retry', nextAttemptAt: 200 });
  });
});

describe('SendSlots', () => {
  let nextId = 0;
  /** Webhook `webhookId` of store `storeId` (store 1 unless given). */
  const delivery = (webhookId: number, leaseUntil = 100_000, storeId = 1): ClaimedDelivery => ({
    id: ++nextId,
    leaseToken: 't',
    leaseUntil,
    attempts: 0,
    createdAt: 0,
    webhook: { id: webhookId, url: 'https://example.com', secret: 'whsec_' },
    event: { storeId } as Event,
  });
  const finish = (slots: SendSlots, taken: readonly ClaimedDelivery[], webhookId: number) => {
    const one = taken.find((d) => d.webhook.id === webhookId);
    if (one === undefined) throw new Error(`no delivery of webhook ${webhookId} in flight`);
    slots.done(one);
  };

  it('keeps at most `perWebhook` in flight per webhook and `concurrency` in total, round-robin', () => {
    const slots = new SendSlots({ concurrency: 4, perWebhook: 2, perStore: 4 });
    slots.add([delivery(1), delivery(1), delivery(1), delivery(1), delivery(2), delivery(3)]);
    const first = slots.take(0);
    expect(first.map((d) => d.webhook.id).sort()).toEqual([1, 1, 2, 3]);
    expect(slots.take(0)).toEqual([]);
    finish(slots, first, 2);
    // Webhook 1 is still at its limit: a slot free for it alone stays free.
    expect(slots.take(0)).toEqual([]);
    finish(slots, first, 1);
    expect(slots.take(0).map((d) => d.webhook.id)).toEqual([1]);
    expect(slots.held).toBe(4);
  });

  it('keeps one store at `perStore` in flight, the other slots open to the other stores, round-robin over stores', () => {
    const slots = new SendSlots({ concurrency: 8, perWebhook: 2, perStore: 4 });
    // Store 1: ten webhooks with a backlog, claimed first; store 2: one webhook.
    for (let webhookId = 1; webhookId <= 10; webhookId++) slots.add([delivery(webhookId, 100_000, 1), delivery(webhookId, 100_000, 1)]);
    slots.add([delivery(11, 100_000, 2), delivery(11, 100_000, 2), delivery(11, 100_000, 2)]);
    const taken = slots.take(0);
    expect(taken.filter((d) => d.event.storeId === 1)).toHaveLength(4);
    expect(taken.filter((d) => d.event.storeId === 2).map((d) => d.webhook.id)).toEqual([11, 11]);
    expect(slots.heldPerStore().get(2)).toBe(3);
    finish(slots, taken, 11);
    expect(slots.take(0).map((d) => d.webhook.id)).toEqual([11]);
    expect(slots.heldPerStore().get(2)).toBe(2);
    expect(slots.heldPerStore().get(1)).toBe(20);
  });

  it('drops a delivery whose lease would end before its request could', () => {
    const slots = new SendSlots({ concurrency: 8, perWebhook: 2, perStore: 8 });
    slots.add([delivery(1, 5_000), delivery(1, 50_000)]);
    expect(slots.take(10_000).map((d) => d.leaseUntil)).toEqual([50_000]);
    expect(slots.held).toBe(1);
    expect(slots.drain()).toEqual([]);
  });
});
