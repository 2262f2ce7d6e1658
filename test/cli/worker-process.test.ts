import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { CLI } from '../support/instance-process.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { sleep, subscribe } from '../support/webhook-fixture.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * README: "For dedicated delivery processes run `pricebook worker` (same database settings) and
 * `serve` with PRICEBOOK_WEBHOOK_WORKER=0". The API here is the test server, which delivers
 * nothing itself; the worker is the built CLI in a process of its own.
 */
beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm test\` does)`);
});

describe.each(await enginesUnderTest())('pricebook worker as its own process on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    server = await startTestServer(engine, { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1', PRICEBOOK_WEBHOOK_WORKER: '0' });
    tenant = await server.createTenant();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });

  it('delivers the events the API wrote, signed, and exits 0 on SIGTERM', async () => {
    const { secret } = await subscribe(server, tenant, 'customer.created', receiver.url);
    expect((await server.request('POST', '/v1/customers', { token: tenant.token, body: { email: 'queued@example.com' } })).status).toBe(201);
    // No worker yet: the event waits in the outbox.
    await sleep(500);
    expect(receiver.deliveries).toHaveLength(0);

    const child = spawn(process.execPath, [CLI, 'worker'], {
      env: {
        PATH: process.env.PATH ?? '',
        PRICEBOOK_DATA_DIR: server.config.dataDir,
        ...(server.config.databaseUrl !== undefined && { DATABASE_URL: server.config.databaseUrl }),
        PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1',
        PRICEBOOK_LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    try {
      await receiver
        .waitFor(() => receiver.deliveries.length === 1, 20_000)
        .catch((error: unknown) => {
          throw new Error(`${String(error)}\nworker output:\n${output}`);
        });
      expect(output).toContain('webhook delivery worker started');
      const delivery = receiver.deliveries[0]!;
      const payload = new StandardWebhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as { event: { id: number; data: unknown } };
      expect(payload.event).toMatchObject({ topic: 'customer.created', data: { email: 'queued@example.com' } });
      expect(delivery.headers['webhook-id']).toBe(String(payload.event.id));

      // It keeps polling: an event written while it runs is delivered too.
      expect((await server.request('POST', '/v1/customers', { token: tenant.token, body: { email: 'live@example.com' } })).status).toBe(201);
      await receiver.waitFor(() => receiver.deliveries.length === 2);
      expect(JSON.parse(receiver.deliveries[1]!.body)).toMatchObject({ event: { data: { email: 'live@example.com' } } });

      const started = Date.now();
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }

    // Stopped: nothing is delivered any more.
    expect((await server.request('POST', '/v1/customers', { token: tenant.token, body: { email: 'after@example.com' } })).status).toBe(201);
    await sleep(500);
    expect(receiver.deliveries).toHaveLength(2);
  });
});
