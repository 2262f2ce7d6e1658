import { expect } from 'vitest';
import { buildDeliveryWorker } from '../../src/app/delivery-worker.js';
import { deliveryObserver } from '../../src/app/metrics.js';
import type { EventTopic } from '../../src/contract/events.js';
import type { DeliveryWorker, DeliveryWorkerOptions } from '../../src/webhooks/delivery-worker.js';
import type { Tenant, TestServer } from './test-server.js';

/** Database trouble of a worker under test shows in the test output. */
export const testWorkerLog = {
  error(details: object, message: string) {
    console.error(message, details);
  },
};

/** A delivery worker on the test server's services, polling often (counting its attempts into the server's metrics, if any). */
export function startWorker(server: TestServer, options: Partial<DeliveryWorkerOptions> = {}): DeliveryWorker {
  const worker = buildDeliveryWorker(server.config, server.services, testWorkerLog, { pollIntervalMs: 50, ...deliveryObserver(server.metrics), ...options });
  worker.start();
  return worker;
}

/** Subscribes `url` to `topic`; the receiver must echo the handshake. */
export async function subscribe(server: TestServer, tenant: Tenant, topic: EventTopic, url: string): Promise<{ id: number; secret: string }> {
  const created = await server.request('POST', '/v1/webhooks', { token: tenant.token, body: { topic, url } });
  expect(created.status, created.text).toBe(201);
  expect(created.body).toMatchObject({ verified: true });
  return created.body as { id: number; secret: string };
}

/** Polls GET /v1/webhooks/{id} until `active` is as expected. */
export async function waitForActive(server: TestServer, tenant: Tenant, id: number, active: boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const webhook = await server.request('GET', `/v1/webhooks/${id}`, { token: tenant.token });
    if ((webhook.body as { active?: boolean }).active === active) return;
    if (Date.now() > deadline) throw new Error(`webhook ${id} did not become active=${active} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
