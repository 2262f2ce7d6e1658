import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Milliseconds since the epoch. */
  receivedAt: number;
}

/** How the receiver answers an event delivery; `delayMs` holds the answer back. */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/hook` */
  url: string;
  /** Event deliveries, in arrival order (handshakes not included). */
  deliveries: ReceivedRequest[];
  handshakes: ReceivedRequest[];
  /** Answers each delivery; `attempt` counts deliveries with the same webhook-id, from 1. Default 200. */
  answer: (request: ReceivedRequest, attempt: number) => ReceiverAnswer;
  /** Whether handshakes are echoed (default true). */
  echoHandshake: boolean;
  /** Milliseconds the handshake's answer is held back (default 0). */
  handshakeDelayMs: number;
  /** Deliveries of one webhook-id that overlapped in time (should stay 0). */
  concurrentDuplicates: number;
  /** Resolves once `predicate` holds, checking every 20 ms; fails after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** The distinct webhook-ids delivered. */
  distinctIds(): Set<string>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (port 0), answering as the test tells it. */
export async function startReceiver(): Promise<WebhookReceiver> {
  const active = new Map<string, number>();
  const attempts = new Map<string, number>();
  const receiver: WebhookReceiver = {
    url: '',
    deliveries: [],
    handshakes: [],
    answer: () => ({ status: 200 }),
    echoHandshake: true,
    handshakeDelayMs: 0,
    concurrentDuplicates: 0,
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms (${receiver.deliveries.length} deliveries so far)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    distinctIds: () => new Set(receiver.deliveries.map((request) => String(request.headers['webhook-id']))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      const parsed = JSON.parse(received.body) as { verificationToken?: string };
      if (parsed.verificationToken !== undefined) {
        receiver.handshakes.push(received);
        const echo = receiver.echoHandshake;
        setTimeout(() => {
          response.writeHead(echo ? 200 : 500, { 'content-type': 'application/json' });
          response.end(echo ? JSON.stringify({ verificationToken: parsed.verificationToken }) : '{}');
        }, receiver.handshakeDelayMs);
        return;
      }
      const id = String(request.headers['webhook-id']);
      if ((active.get(id) ?? 0) > 0) receiver.concurrentDuplicates += 1;
      active.set(id, (active.get(id) ?? 0) + 1);
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      receiver.deliveries.push(received);
      const answer = receiver.answer(received, attempt);
      setTimeout(() => {
        active.set(id, (active.get(id) ?? 1) - 1);
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        response.end('{}');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
