import { beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver, ResolvedAddress } from '../../src/webhooks/host-resolver.js';
import type { OutgoingPost, ReceiverResponse, WebhookTransport } from '../../src/webhooks/http-transport.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { startTestServer } from '../support/test-server.js';
import { startWorker, waitForActive } from '../support/webhook-fixture.js';
import { startReceiver } from '../support/webhook-receiver.js';

/** DNS answers from a table the test changes; no query leaves the process. */
class StubResolver implements HostResolver {
  readonly table = new Map<string, string[]>();
  resolve(hostname: string): Promise<ResolvedAddress[]> {
    const addresses = this.table.get(hostname);
    if (addresses === undefined) return Promise.reject(new Error('ENOTFOUND'));
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  }
}

/** Records what would have been sent and answers like a good receiver; opens no socket. */
class RecordingTransport implements WebhookTransport {
  readonly posts: OutgoingPost[] = [];
  post(request: OutgoingPost): Promise<ReceiverResponse> {
    this.posts.push(request);
    const body = JSON.parse(request.body) as { verificationToken?: string };
    return Promise.resolve({ status: 200, body: JSON.stringify(body.verificationToken === undefined ? {} : { verificationToken: body.verificationToken }) });
  }
  close(): void {}
}

describe.each(PROTOCOL_ENGINES)('webhook SSRF guard on %s', (engine) => {
  const resolver = new StubResolver();
  const transport = new RecordingTransport();
  const suite = suiteServer(engine, {
    env: { PRICEBOOK_WEBHOOK_RETRY_SCHEDULE: '0.1,0.1' },
    services: { webhookResolver: resolver, webhookTransport: transport },
    tenants: 1,
  });

  beforeAll(() => {
    // 93.184.216.34 is only ever handed to the recording transport: nothing is sent to it.
    resolver.table.set('hooks.example.com', ['93.184.216.34']);
    resolver.table.set('internal.example.com', ['10.0.0.5']);
    resolver.table.set('mixed.example.com', ['93.184.216.34', '192.168.1.20']);
    resolver.table.set('metadata.example.com', ['169.254.169.254']);
    resolver.table.set('metadata6.example.com', ['fd00:ec2::254']);
    resolver.table.set('cgnat.example.com', ['100.64.3.4']);
    resolver.table.set('mapped.example.com', ['::ffff:127.0.0.1']);
  });

  const create = (url: string) => suite.server.request('POST', '/v1/webhooks', { token: suite.tenant.token, body: { topic: 'customer.created', url } });

  it.each([
    'https://internal.example.com/hook',
    'https://mixed.example.com/hook',
    'https://metadata.example.com/latest/meta-data',
    'https://metadata6.example.com/',
    'https://cgnat.example.com/',
    'https://mapped.example.com/',
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://169.254.169.254/',
    'https://nowhere.example.com/',
    'http://hooks.example.com/hook',
  ])('refuses %s with 422 on url, and opens no connection', async (url) => {
    const before = transport.posts.length;
    const refused = await create(url);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 10, errors: [{ field: 'url', message: expect.any(String) }] });
    expect(transport.posts.length).toBe(before);
  });

  it.each([
    ['https://127.0.0.1/hook', 'a loopback address'],
    ['https://internal.example.com/hook', 'a private address'],
    ['https://nowhere.example.com/', 'a name that does not resolve (the same words: nothing to probe)'],
  ])('names PRICEBOOK_WEBHOOK_ALLOW_PRIVATE when refusing %s (%s)', async (url) => {
    const refused = await create(url);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      code: 10,
      message: 'Validation failed: 1 problem',
      errors: [
        {
          field: 'url',
          message:
            'must have a host that resolves to public addresses only (not loopback, private, link-local, shared (CGNAT), unique-local, multicast, cloud-metadata or IPv4-embedding IPv6); ' +
            'a receiver on this machine or a private network (development and tests only) needs the server started with PRICEBOOK_WEBHOOK_ALLOW_PRIVATE=1',
        },
      ],
    });
  });

  it('names PRICEBOOK_WEBHOOK_ALLOW_PRIVATE when refusing an http:// receiver', async () => {
    const refused = await create('http://127.0.0.1:9/hook');
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 10,
      errors: [
        { field: 'url', message: 'must start with https://; http:// is allowed only with PRICEBOOK_WEBHOOK_ALLOW_PRIVATE=1 (development and tests only)' },
      ],
    });
    expect((await suite.server.request('GET', '/v1/webhooks/count', { token: suite.tenant.token })).body).toEqual({ count: 0 });
  });

  it('checks every delivery again: a host that now resolves privately gets nothing (DNS rebinding)', async () => {
    resolver.table.set('rebinding.example.com', ['93.184.216.34']);
    const created = await create('https://rebinding.example.com/hook');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ verified: true });
    const { id } = created.body as { id: number };
    // The handshake went to the checked address, and only there.
    expect(transport.posts.at(-1)!.target.address.address).toBe('93.184.216.34');
    const postsAfterHandshake = transport.posts.length;

    resolver.table.set('rebinding.example.com', ['127.0.0.1']);
    const worker = startWorker(suite.server);
    try {
      expect((await suite.server.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'rebind@example.com' } })).status).toBe(201);
      // Both attempts are refused before any connection, and the webhook is disabled.
      await waitForActive(suite.server, suite.tenant, id, false);
      expect(transport.posts.length).toBe(postsAfterHandshake);
    } finally {
      await worker.stop();
    }
  });
});

describe('webhook connections go to the checked address', () => {
  it('pins the resolved address: a name the system cannot resolve still reaches it', async () => {
    const resolver = new StubResolver();
    const receiver = await startReceiver();
    const server = await startTestServer('sqlite', { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' }, { services: { webhookResolver: resolver } });
    try {
      resolver.table.set('receiver.invalid', ['127.0.0.1']);
      const tenant = await server.createTenant();
      const url = receiver.url.replace('127.0.0.1', 'receiver.invalid');
      const created = await server.request('POST', '/v1/webhooks', { token: tenant.token, body: { topic: 'customer.created', url } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ verified: true });
      expect(receiver.handshakes).toHaveLength(1);
      expect(receiver.handshakes[0]!.headers.host).toBe(new URL(url).host);
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});
