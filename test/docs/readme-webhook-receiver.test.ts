import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markedBlocks, REPOSITORY } from '../support/doc-blocks.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { freePort } from '../support/free-port.js';

/**
 * The README's webhook receiver (the block after `<!-- webhook-receiver -->`), run as written
 * (Node strips its types) on a free port, through the README's three steps: create the webhook
 * (the receiver is not running yet, it needs the secret: not verified), start the receiver with
 * the secret, `POST …/verify` (verified).
 */
const RECEIVER_TIMEOUT_MS = 20_000;

describe('the README’s webhook receiver and its two steps', () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-receiver-'));
  let server: TestServer;
  let tenant: Tenant;
  let receiver: ChildProcessWithoutNullStreams | undefined;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' });
    tenant = await server.createTenant();
  });

  afterAll(async () => {
    if (receiver !== undefined && receiver.exitCode === null) {
      const exited = new Promise((resolve) => receiver!.once('exit', resolve));
      receiver.kill('SIGKILL');
      await exited;
    }
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('cannot pass the handshake at creation, and passes it on verify once started with the secret', async () => {
    const blocks = markedBlocks('README.md', 'webhook-receiver');
    expect(blocks).toHaveLength(1);
    const source = blocks[0]!.text;
    expect(source.match(/\.listen\(3000\)/g)).toHaveLength(1);
    const port = await freePort();
    // The receiver imports standardwebhooks as a reader's project would: from its own node_modules.
    fs.mkdirSync(path.join(directory, 'node_modules'));
    fs.symlinkSync(path.join(REPOSITORY, 'node_modules', 'standardwebhooks'), path.join(directory, 'node_modules', 'standardwebhooks'));
    fs.writeFileSync(path.join(directory, 'receiver.ts'), source.replace('.listen(3000)', `.listen(${port})`));

    // 1. Create: the receiver is not there yet, so the handshake the POST waits for fails.
    const created = await server.request('POST', '/v1/webhooks', {
      token: tenant.token,
      body: { topic: 'trade_customer_product_price.created', url: `http://127.0.0.1:${port}/` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const webhook = created.body as { id: number; verified: boolean; secret: string };
    expect(webhook.verified).toBe(false);
    expect(webhook.secret).toMatch(/^whsec_/);

    // 2. Start the receiver with the secret of the answer.
    receiver = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', 'receiver.ts'], {
      cwd: directory,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PRICEBOOK_WEBHOOK_SECRET: webhook.secret },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    receiver.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    receiver.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const deadline = Date.now() + RECEIVER_TIMEOUT_MS;
    while (!(await listening(port))) {
      if (Date.now() > deadline || receiver.exitCode !== null) throw new Error(`the receiver did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // 3. Verify: the receiver checks the signature with the secret and echoes the token.
    const verified = await server.request('POST', `/v1/webhooks/${webhook.id}/verify`, { token: tenant.token, body: {} });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({ id: webhook.id, verified: true });
    expect(verified.body).not.toHaveProperty('secret');
    expect((await server.request('GET', `/v1/webhooks/${webhook.id}`, { token: tenant.token })).body).toMatchObject({ verified: true });
  });
});

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
