import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, enginesUnderTest } from '../support/engines.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { CLI } from '../support/cli-process.js';
import { freePort } from '../support/free-port.js';

/** A port free right now on 127.0.0.1 (serve refuses port 0). */
/** `node dist/main/pricebook.js serve`, resolved once it logs that it listens. */
async function startServe(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

describe.each(await enginesUnderTest())('webhook delivery across a crash on %s', (engine) => {
  const agent = new Agent({ connect: { rejectUnauthorized: false } });
  const children: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await agent.close();
  });

  it('loses no event when the server is killed with SIGKILL while deliveries are pending', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-crash-'));
    const postgres = engine === 'postgres' ? await createPostgresDatabase() : undefined;
    const receiver = await startReceiver();
    try {
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        PRICEBOOK_DATA_DIR: dataDir,
        PRICEBOOK_PORT: String(port),
        PRICEBOOK_HTTP_PORT: '0',
        PRICEBOOK_DEMO: '0',
        PRICEBOOK_LOG_LEVEL: 'info',
        PRICEBOOK_RATE_LIMIT_BUCKET: '10000',
        PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1',
        PRICEBOOK_WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2',
        ...(postgres && { DATABASE_URL: postgres.url }),
      };
      const cli = (...args: string[]) => JSON.parse(execFileSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' })) as Record<string, unknown>;
      const store = cli('stores', 'create', '--name', 'Crash test');
      const { token } = cli('keys', 'create', '--store', String(store.id)) as { token: string };
      const api = async (method: 'POST' | 'GET', urlPath: string, body?: unknown) => {
        const response = await request(`https://127.0.0.1:${port}${urlPath}`, {
          method,
          dispatcher: agent,
          headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.body.text();
        expect(response.statusCode, text).toBeLessThan(300);
        return JSON.parse(text) as unknown;
      };

      children.push(await startServe(env));
      const customer = (await api('POST', '/v1/customers', { email: 'crash@example.com', trade: true })) as { id: number };
      const product = (await api('POST', '/v1/products', { title: 'Crate', sku: 'CRATE', price: 9 })) as { id: number };
      expect(await api('POST', '/v1/webhooks', { topic: 'trade_customer_product_price.created', url: receiver.url })).toMatchObject({ verified: true });
      // Slow answers: the kill comes while most events still wait.
      receiver.answer = () => ({ status: 200, delayMs: 20 });
      const items = Array.from({ length: 300 }, () => ({ customerId: customer.id, productId: product.id, sku: 'CRATE', price: 1 }));
      const prices = (await api('POST', '/v1/trade-customer-product-prices/bulk', items)) as Array<{ id: number }>;

      await receiver.waitFor(() => receiver.deliveries.length >= 20);
      children[0]!.kill('SIGKILL');
      await exited(children[0]!);
      const beforeCrash = receiver.distinctIds().size;
      expect(beforeCrash).toBeLessThan(300);

      children.push(await startServe(env));
      // Deliveries leased by the dead process come back when their lease (30 s) ends.
      await receiver.waitFor(() => receiver.distinctIds().size === 300, 75_000);
      const delivered = new Set(receiver.deliveries.map((delivery) => (JSON.parse(delivery.body) as { event: { subjectId: number } }).event.subjectId));
      expect(delivered).toEqual(new Set(prices.map((price) => price.id)));
      console.log(`[${engine}] ${beforeCrash} delivered before SIGKILL, ${receiver.deliveries.length - 300} sent twice (at-least-once)`);

      children[1]!.kill('SIGTERM');
      await exited(children[1]!);
    } finally {
      await receiver.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
