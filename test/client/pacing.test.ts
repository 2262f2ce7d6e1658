import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { Pricebook, PricebookError } from '../../packages/client/src/index.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { parsePrometheusText, type Sample } from '../support/prometheus-text.js';
import { suiteServer } from '../support/suite-server.js';
import type { TestServer } from '../support/test-server.js';

/** The server's own count of what it answered, from its metrics listener. */
async function scrape(server: TestServer): Promise<Sample[]> {
  const response = await undiciRequest(`${server.metricsBaseUrl!}/metrics`);
  return parsePrometheusText(await response.body.text());
}

function sum(samples: readonly Sample[], name: string, labels: Record<string, string>): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((total, sample) => total + sample.value, 0);
}

const CUSTOMERS = 50;
const PRICES_PER_CUSTOMER = 100;

/**
 * The client against the server's DEFAULT limits (bucket 40, leak 2 per second): a sync of 5000
 * prices is 50 requests of 100 prices, which a burst cannot carry, and the server answers none
 * of them 429. Clock-bound (it waits for the bucket), so it runs in the `timed` project.
 */
describe.each(PROTOCOL_ENGINES)('pacing against the default rate limits on %s', (engine) => {
  const suite = suiteServer(engine, { env: { PRICEBOOK_RATE_LIMIT_BUCKET: '40', PRICEBOOK_RATE_LIMIT_LEAK: '2' }, tenants: 1, metrics: true });

  const clientFor = (token: string, pacing = true) => new Pricebook({ baseUrl: suite.server.baseUrl, token, ca: suite.server.ca, pacing });

  /** Other credentials of the tenant's store, each with a bucket of its own, make the catalog. */
  async function catalog(): Promise<{ customerIds: number[]; productId: number; skus: string[] }> {
    const makers = await Promise.all([0, 1].map(async () => clientFor((await suite.server.services.credentials.issueKey(suite.tenant.storeId)).token, false)));
    try {
      const skus = Array.from({ length: PRICES_PER_CUSTOMER }, (_, index) => `SYNC-${String(index).padStart(3, '0')}`);
      const product = await makers[0]!.products.create({ title: 'Sync', price: 1, variations: skus.map((sku) => ({ sku })) });
      const customerIds: number[] = [];
      for (let index = 0; index < CUSTOMERS; index++) {
        customerIds.push((await makers[index % 2]!.customers.create({ email: `sync-${index}@example.com`, trade: true })).id);
      }
      return { customerIds, productId: product.id, skus };
    } finally {
      for (const maker of makers) maker.close();
    }
  }

  it('syncs 5000 prices in 50 paced requests: no 429 answered, seen from the server', async () => {
    const { customerIds, productId, skus } = await catalog();
    const before = await scrape(suite.server);
    const client = clientFor(suite.tenant.token);
    const started = Date.now();
    try {
      let created = 0;
      for (const [index, customerId] of customerIds.entries()) {
        const prices = skus.map((sku, position) => ({ productId, sku, price: (index * 100 + position) / 100 }));
        created += (await client.replaceCustomerPrices(customerId, prices, { scope: 'customer' })).created.length;
      }
      expect(created).toBe(CUSTOMERS * PRICES_PER_CUSTOMER);
      expect(await client.tradePrices.count()).toBe(CUSTOMERS * PRICES_PER_CUSTOMER);
      const seconds = (Date.now() - started) / 1000;
      const counters = client.counters;
      const after = await scrape(suite.server);
      const refused =
        sum(after, 'pricebook_rate_limit_refusals_total', { limiter: 'credential' }) -
        sum(before, 'pricebook_rate_limit_refusals_total', { limiter: 'credential' });
      const answered429 = sum(after, 'pricebook_http_requests_total', { status: '429' }) - sum(before, 'pricebook_http_requests_total', { status: '429' });
      console.log(
        `pacing on ${engine}: ${CUSTOMERS * PRICES_PER_CUSTOMER} prices in ${counters.requests} requests, ${seconds.toFixed(1)} s, waited ${counters.waitedMs} ms, 429s answered by the server: ${answered429}`,
      );
      expect(refused).toBe(0);
      expect(answered429).toBe(0);
      expect(counters).toEqual({ requests: CUSTOMERS + 1, waitedMs: expect.any(Number), retriedAfter429: 0 });
      // 51 requests through a bucket of 40 leaking 2 a second: the client had to wait for about 6 s of them.
      expect(counters.waitedMs).toBeGreaterThan(3000);
    } finally {
      client.close();
    }
  });

  it('retries a 429 after its Retry-After when another client drained the bucket; unpaced, the 429 is a PricebookError', async () => {
    const tenant = await suite.server.createTenant();
    const unpaced = clientFor(tenant.token, false);
    const paced = clientFor(tenant.token);
    try {
      // The unpaced client empties the credential's bucket: at most 41 requests.
      let refusal: unknown;
      for (let attempt = 0; attempt <= 40 && refusal === undefined; attempt++) {
        refusal = await unpaced.customers.count().then(
          () => undefined,
          (error: unknown) => error,
        );
      }
      expect(refusal).toBeInstanceOf(PricebookError);
      expect(refusal).toMatchObject({ status: 429, code: 11, retryAfterSeconds: expect.any(Number) });
      expect((refusal as PricebookError).retryAfterSeconds).toBeGreaterThanOrEqual(1);

      // The paced client knew nothing of it: its first request is refused, waited for, retried.
      expect(await paced.customers.count()).toBe(0);
      expect(paced.counters.retriedAfter429).toBe(1);
      expect(paced.counters.requests).toBe(2);
      expect(paced.counters.waitedMs).toBeGreaterThanOrEqual(900);
    } finally {
      unpaced.close();
      paced.close();
    }
  });
});
