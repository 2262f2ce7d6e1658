import { request as undiciRequest } from 'undici';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { parsePrometheusText, type Sample, sampleValue } from '../support/prometheus-text.js';
import { suiteServer } from '../support/suite-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { startWorker, subscribe } from '../support/webhook-fixture.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const TOKEN = 'metrics-token-0123456789abcdef';

async function scrapeRaw(server: TestServer, headers: Record<string, string> = {}, path = '/metrics') {
  if (server.metricsBaseUrl === undefined) throw new Error('start the test server with { metrics: true }');
  const response = await undiciRequest(`${server.metricsBaseUrl}${path}`, { headers });
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

/** A scrape, checked to be the Prometheus text format, as samples. */
async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await scrapeRaw(server, headers);
  expect(response.status, response.text).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(response.text);
}

/** Counters not yet incremented are absent; that is zero. */
function count(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return sampleValue(samples, name, labels) ?? 0;
}

describe.each(await enginesUnderTest())('metrics listener on %s', (engine) => {
  // Bucket 5 per credential, leaking one place in about 17 minutes: the sixth request is a 429.
  const suite = suiteServer(engine, {
    metrics: true,
    tenants: 0,
    env: { PRICEBOOK_RATE_LIMIT_BUCKET: '5', PRICEBOOK_RATE_LIMIT_LEAK: '0.001', PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' },
  });

  it('listens on 127.0.0.1, apart from the API, and answers only GET /metrics', async () => {
    expect(new URL(suite.server.metricsBaseUrl ?? '').hostname).toBe('127.0.0.1');
    expect(new URL(suite.server.metricsBaseUrl ?? '').port).not.toBe(String(suite.server.port));
    expect((await scrapeRaw(suite.server, {}, '/v1/customers')).status).toBe(404);
    expect((await scrapeRaw(suite.server, {}, '/')).status).toBe(404);
    const response = await undiciRequest(`${suite.server.metricsBaseUrl}/metrics`, { method: 'POST', body: '' });
    await response.body.text();
    expect(response.statusCode).toBe(405);
  });

  it('counts requests by route template and status, 401s and 429s, with latency histograms', async () => {
    const before = await scrape(suite.server);
    const tenant = await suite.server.createTenant();
    const created = await suite.api.request('POST', '/v1/customers', { token: tenant.token, body: { email: 'metrics@example.com' } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    expect((await suite.api.request('GET', `/v1/customers/${id}`, { token: tenant.token })).status).toBe(200);
    expect((await suite.api.request('GET', '/v1/customers/987654321', { token: tenant.token })).status).toBe(404);
    expect((await suite.api.request('GET', '/v1/no-such-thing/123456789', { token: tenant.token })).status).toBe(404);
    expect((await suite.api.request('GET', '/v1/customers')).status).toBe(401);
    // The fifth request of this credential fills its bucket; the sixth is refused.
    expect((await suite.api.request('GET', '/v1/customers', { token: tenant.token })).status).toBe(200);
    expect((await suite.api.request('GET', '/v1/customers', { token: tenant.token })).status).toBe(429);
    const after = await scrape(suite.server);

    const delta = (name: string, labels: Record<string, string>) => count(after, name, labels) - count(before, name, labels);
    const requests = (method: string, route: string, status: string) => delta('pricebook_http_requests_total', { method, route, status });
    expect(requests('POST', '/v1/customers', '201')).toBe(1);
    expect(requests('GET', '/v1/customers/:id', '200')).toBe(1);
    expect(requests('GET', '/v1/customers/:id', '404')).toBe(1);
    expect(requests('GET', 'unmatched', '404')).toBe(1);
    expect(requests('GET', '/v1/customers', '401')).toBe(1);
    expect(requests('GET', '/v1/customers', '200')).toBe(1);
    expect(requests('GET', '/v1/customers', '429')).toBe(1);
    expect(delta('pricebook_auth_failures_total', {})).toBe(1);
    expect(delta('pricebook_rate_limit_refusals_total', { limiter: 'credential' })).toBe(1);
    expect(delta('pricebook_rate_limit_refusals_total', { limiter: 'auth_failures' })).toBe(0);

    // Histograms: one observation for the 200 of the get, in every bucket up to +Inf.
    const histogram = { method: 'GET', route: '/v1/customers/:id', status: '200' };
    expect(delta('pricebook_http_request_duration_seconds_count', histogram)).toBe(1);
    expect(delta('pricebook_http_request_duration_seconds_bucket', { ...histogram, le: '+Inf' })).toBe(1);
    expect(delta('pricebook_http_request_duration_seconds_sum', histogram)).toBeGreaterThan(0);
    // Never the URL as sent: ids and unknown paths do not become labels.
    const routes = new Set(after.filter((sample) => sample.name === 'pricebook_http_requests_total').map((sample) => sample.labels.route));
    expect([...routes].filter((route) => route === undefined || /\d{3}|no-such-thing/.test(route))).toEqual([]);
  });

  it('counts a 429 of the failed-authentication throttle apart from the credential bucket', async () => {
    const throttled = await startTestServer(engine, { PRICEBOOK_AUTH_FAILURE_BUCKET: '1', PRICEBOOK_AUTH_FAILURE_LEAK: '0.001' }, { metrics: true });
    try {
      expect((await throttled.request('GET', '/v1/customers', { token: 'pk_x.sk_y' })).status).toBe(401);
      expect((await throttled.request('GET', '/v1/customers', { token: 'pk_x.sk_y' })).status).toBe(429);
      const samples = await scrape(throttled);
      expect(count(samples, 'pricebook_auth_failures_total')).toBe(1);
      expect(count(samples, 'pricebook_rate_limit_refusals_total', { limiter: 'auth_failures' })).toBe(1);
      expect(count(samples, 'pricebook_rate_limit_refusals_total', { limiter: 'credential' })).toBe(0);
    } finally {
      await throttled.close();
    }
  });

  it('reports the database connections, the rate limiter mode and the process', async () => {
    const samples = await scrape(suite.server);
    expect(sampleValue(samples, 'pricebook_database_connections', { state: 'max' })).toBe(engine === 'postgres' ? 5 : 1);
    expect(sampleValue(samples, 'pricebook_database_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'pricebook_database_waiting_queries')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'pricebook_rate_limiter_mode', { mode: 'memory' })).toBe(1);
    expect(sampleValue(samples, 'pricebook_rate_limiter_mode', { mode: 'local-fallback' })).toBe(0);
    expect(sampleValue(samples, 'pricebook_metrics_database_up')).toBe(1);
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('reports how long the event loop was held: p99 and max over the last minute, in seconds', async () => {
    // The server runs in this process: holding the loop here holds the server's.
    const until = performance.now() + 120;
    while (performance.now() < until) {
      // busy on purpose
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const samples = await scrape(suite.server);
    const max = sampleValue(samples, 'pricebook_event_loop_delay_max_seconds') ?? NaN;
    const p99 = sampleValue(samples, 'pricebook_event_loop_delay_p99_seconds') ?? NaN;
    expect(max).toBeGreaterThanOrEqual(0.11);
    expect(max).toBeLessThan(5);
    expect(p99).toBeGreaterThanOrEqual(0);
    expect(p99).toBeLessThanOrEqual(max);
    // A scrape does not reset the window: the next one still sees the hold.
    expect(sampleValue(await scrape(suite.server), 'pricebook_event_loop_delay_max_seconds')).toBeGreaterThanOrEqual(0.11);
  });

  describe('webhook outbox', () => {
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());

    it('shows events waiting, their age and the events table size, then the deliveries by outcome', async () => {
      const tenant = await suite.server.createTenant();
      await subscribe(suite.server, tenant, 'customer.created', receiver.url);
      for (const email of ['a@example.com', 'b@example.com']) {
        expect((await suite.api.request('POST', '/v1/customers', { token: tenant.token, body: { email } })).status).toBe(201);
      }
      // No worker yet: the events wait to be fanned out. (Sleep past the reuse of the last reading.)
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const { db } = suite.server.services.database;
      const events = Number(
        (
          await db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      if (engine === 'postgres') await sql`analyze events`.execute(db);
      const waiting = await scrape(suite.server);
      expect(sampleValue(waiting, 'pricebook_webhook_queue_depth', { stage: 'fan_out' })).toBe(events);
      expect(sampleValue(waiting, 'pricebook_webhook_queue_depth', { stage: 'pending' })).toBe(0);
      expect(sampleValue(waiting, 'pricebook_webhook_oldest_undelivered_event_age_seconds')).toBeGreaterThan(0.5);
      expect(sampleValue(waiting, 'pricebook_events_table_rows')).toBe(events);

      const worker = startWorker(suite.server);
      try {
        await receiver.waitFor(() => receiver.deliveries.length === 2);
        // Outcomes are counted as the requests end (their recording follows within 50 ms).
        const deadline = Date.now() + 10_000;
        let delivered: Sample[] = [];
        do {
          await new Promise((resolve) => setTimeout(resolve, 1100));
          delivered = await scrape(suite.server);
        } while (sampleValue(delivered, 'pricebook_webhook_queue_depth', { stage: 'pending' }) !== 0 && Date.now() < deadline);
        expect(sampleValue(delivered, 'pricebook_webhook_deliveries_total', { outcome: 'delivered' })).toBe(2);
        expect(sampleValue(delivered, 'pricebook_webhook_deliveries_total', { outcome: 'retry' })).toBe(0);
        expect(sampleValue(delivered, 'pricebook_webhook_queue_depth', { stage: 'fan_out' })).toBe(0);
        expect(sampleValue(delivered, 'pricebook_webhook_queue_depth', { stage: 'pending' })).toBe(0);
        expect(sampleValue(delivered, 'pricebook_webhook_oldest_undelivered_event_age_seconds')).toBe(0);
      } finally {
        await worker.stop();
      }
    });
  });

  it('leaves /metrics on the HTTPS listener as it was: a 404 of the API', async () => {
    const response = await suite.api.request('GET', '/metrics');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 5 });
  });
});

describe.each(await enginesUnderTest())('metrics listener with a token on %s', (engine) => {
  const suite = suiteServer(engine, { metrics: true, tenants: 0, env: { PRICEBOOK_METRICS_TOKEN: TOKEN } });

  it('answers 401 without the token, or with another, and the metrics with it', async () => {
    const wrong: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    ];
    for (const headers of wrong) {
      const refused = await scrapeRaw(suite.server, headers);
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(refused.text).not.toContain('pricebook_');
    }
    // Nor does it say what else is there.
    expect((await scrapeRaw(suite.server, {}, '/elsewhere')).status).toBe(401);
    const samples = await scrape(suite.server, { authorization: `Bearer ${TOKEN}` });
    expect(sampleValue(samples, 'pricebook_metrics_database_up')).toBe(1);
  });
});
