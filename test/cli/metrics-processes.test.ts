import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { request as undiciRequest } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/config.js';
import { serve } from '../../src/main/serve.js';
import { runWorker } from '../../src/main/worker.js';
import { createPostgresDatabase, enginesUnderTest } from '../support/engines.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { freePort } from '../support/free-port.js';

const silent = new Writable({ write: (_chunk, _encoding, done) => done() });

describe('metrics settings', () => {
  it('are off by default, on 127.0.0.1 without a token', () => {
    const config = parseConfig({});
    expect(config.metricsPort).toBe(0);
    expect(config.metricsHost).toBe('127.0.0.1');
    expect(config.metricsToken).toBeUndefined();
  });

  it('refuse an address other than loopback without a token, and a short or malformed token', () => {
    expect(() => parseConfig({ PRICEBOOK_METRICS_PORT: '9464', PRICEBOOK_METRICS_HOST: '0.0.0.0' })).toThrow(/PRICEBOOK_METRICS_TOKEN/);
    expect(() => parseConfig({ PRICEBOOK_METRICS_PORT: '9464', PRICEBOOK_METRICS_HOST: '::' })).toThrow(ConfigError);
    expect(parseConfig({ PRICEBOOK_METRICS_PORT: '9464', PRICEBOOK_METRICS_HOST: '0.0.0.0', PRICEBOOK_METRICS_TOKEN: 'a'.repeat(32) }).metricsHost).toBe(
      '0.0.0.0',
    );
    expect(parseConfig({ PRICEBOOK_METRICS_PORT: '9464', PRICEBOOK_METRICS_HOST: '::1' }).metricsHost).toBe('::1');
    expect(() => parseConfig({ PRICEBOOK_METRICS_TOKEN: 'short' })).toThrow(/PRICEBOOK_METRICS_TOKEN/);
    expect(() => parseConfig({ PRICEBOOK_METRICS_TOKEN: 'has spaces in it, sixteen+' })).toThrow(/PRICEBOOK_METRICS_TOKEN/);
    expect(() => parseConfig({ PRICEBOOK_METRICS_HOST: 'metrics.example' })).toThrow(/PRICEBOOK_METRICS_HOST/);
    expect(() => parseConfig({ PRICEBOOK_METRICS_PORT: '70000' })).toThrow(/PRICEBOOK_METRICS_PORT/);
  });
});

async function scrapeFamilies(host: string, port: number): Promise<Set<string>> {
  const response = await undiciRequest(`http://${host}:${port}/metrics`);
  const text = await response.body.text();
  expect(response.statusCode).toBe(200);
  return new Set(parsePrometheusText(text).map((sample) => sample.name));
}

describe.each(await enginesUnderTest())('metrics of serve and worker on %s', (engine) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function environment(extra: Record<string, string>): Promise<Record<string, string>> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-metrics-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const postgres = engine === 'postgres' ? await createPostgresDatabase() : undefined;
    if (postgres !== undefined) cleanups.push(postgres.drop);
    return {
      PRICEBOOK_DATA_DIR: dataDir,
      PRICEBOOK_PORT: String(await freePort()),
      PRICEBOOK_HTTP_PORT: '0',
      PRICEBOOK_DEMO: '0',
      PRICEBOOK_LOG_LEVEL: 'silent',
      ...(postgres && { DATABASE_URL: postgres.url }),
      ...extra,
    };
  }

  it('serve opens no metrics listener unless asked', async () => {
    const running = await serve(parseConfig(await environment({})), silent);
    cleanups.push(() => running.stop());
    expect(running.metrics).toBeUndefined();
  });

  it('serve with a metrics port listens on 127.0.0.1 only, with request and delivery metrics', async () => {
    const port = await freePort();
    const running = await serve(parseConfig(await environment({ PRICEBOOK_METRICS_PORT: String(port) })), silent);
    cleanups.push(() => running.stop());
    expect(running.metrics).toEqual({ host: '127.0.0.1', port });
    const families = await scrapeFamilies('127.0.0.1', port);
    expect(families).toContain('pricebook_rate_limit_refusals_total');
    expect(families).toContain('pricebook_webhook_deliveries_total');
    expect(families).toContain('pricebook_webhook_queue_depth');
  });

  it('worker with a metrics port exposes its deliveries and the outbox, and no request metrics', async () => {
    const port = await freePort();
    const running = await runWorker(parseConfig(await environment({ PRICEBOOK_METRICS_PORT: String(port) })));
    cleanups.push(() => running.stop());
    expect(running.metrics).toEqual({ host: '127.0.0.1', port });
    const families = await scrapeFamilies('127.0.0.1', port);
    expect(families).toContain('pricebook_webhook_deliveries_total');
    expect(families).toContain('pricebook_webhook_oldest_undelivered_event_age_seconds');
    expect(families).toContain('pricebook_database_connections');
    expect([...families].filter((name) => name.startsWith('pricebook_http_') || name.startsWith('pricebook_rate_limit'))).toEqual([]);
  });
});
