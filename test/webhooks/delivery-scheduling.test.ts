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
  const delivery = (webhookId: number, leaseUntil = 100_000): ClaimedDelivery => ({
    id: ++nextId,
    leaseToken: 't',
    leaseUntil,
    attempts: 0,
    createdAt: 0,
    webhook: { id: webhookId, url: 'https://example.com', secret: 'whsec_' },
    event: {} as Event,
  });

  it('keeps at most `perWebhook` in flight per webhook and `concurrency` in total, round-robin', () => {
    const slots = new SendSlots(4, 2);
    slots.add([delivery(1), delivery(1), delivery(1), delivery(1), delivery(2), delivery(3)]);
    const first = slots.take(0);
    expect(first.map((d) => d.webhook.id).sort()).toEqual([1, 1, 2, 3]);
    expect(slots.take(0)).toEqual([]);
    slots.done(2);
    // Webhook 1 is still at its limit: a slot free for it alone stays free.
    expect(slots.take(0)).toEqual([]);
    slots.done(1);
    expect(slots.take(0).map((d) => d.webhook.id)).toEqual([1]);
    expect(slots.held).toBe(4);
  });

  it('drops a delivery whose lease would end before its request could', () => {
    const slots = new SendSlots(8, 2);
    slots.add([delivery(1, 5_000), delivery(1, 50_000)]);
    expect(slots.take(10_000).map((d) => d.leaseUntil)).toEqual([50_000]);
    expect(slots.held).toBe(1);
    expect(slots.drain()).toEqual([]);
  });
});
