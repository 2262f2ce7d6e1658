import { randomBytes } from 'node:crypto';
import type { Event } from '../contract/events.js';
import type { Clock } from '../modules/shared/clock.js';
import type { ReceiverHandshake } from '../modules/webhooks/receivers.js';
import type { WebhookTransport } from './http-transport.js';
import type { ReceiverGuard } from './receiver-guard.js';
import { signatureHeaders } from './signature.js';

/** A receiver must answer within this many milliseconds, name resolution included. */
export const RECEIVER_TIMEOUT_MS = 5_000;

/** How much of an answer is read: enough for the handshake's echo. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export type AttemptOutcome =
  | { delivered: true; status: number }
  | {
      delivered: false;
      /** The receiver's status, when it answered at all. */
      status: number | undefined;
      error: string;
    };

/**
 * Sends signed requests to receivers: events, and the verification handshake. Every request
 * passes the SSRF guard first and connects only to the address the guard checked.
 */
export class WebhookSender implements ReceiverHandshake {
  constructor(
    private readonly guard: ReceiverGuard,
    private readonly transport: WebhookTransport,
    private readonly clock: Clock,
    private readonly timeoutMs: number = RECEIVER_TIMEOUT_MS,
  ) {}

  /** One attempt to deliver an event: a 2xx answer within the time limit is a success. */
  async deliver(url: string, secret: string, event: Event): Promise<AttemptOutcome> {
    const now = this.clock.now();
    const body = JSON.stringify({ timestamp: new Date(now).toISOString(), event });
    const answer = await this.post(url, secret, String(event.id), now, body);
    if ('error' in answer) return { delivered: false, status: undefined, error: answer.error };
    if (answer.status >= 200 && answer.status < 300) return { delivered: true, status: answer.status };
    const kind = answer.status >= 300 && answer.status < 400 ? 'a redirect, which is not followed' : 'not a 2xx answer';
    return { delivered: false, status: answer.status, error: `receiver answered ${answer.status}: ${kind}` };
  }

  async verify(url: string, secret: string): Promise<boolean> {
    const now = this.clock.now();
    const verificationToken = randomBytes(24).toString('base64url');
    const body = JSON.stringify({ timestamp: new Date(now).toISOString(), verificationToken });
    const answer = await this.post(url, secret, `verification_${randomBytes(12).toString('hex')}`, now, body);
    if ('error' in answer || answer.status !== 200) return false;
    try {
      const echoed = JSON.parse(answer.body) as unknown;
      return typeof echoed === 'object' && echoed !== null && (echoed as { verificationToken?: unknown }).verificationToken === verificationToken;
    } catch {
      return false;
    }
  }

  close(): void {
    this.transport.close();
  }

  private async post(url: string, secret: string, messageId: string, now: number, body: string): Promise<{ status: number; body: string } | { error: string }> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const verdict = await Promise.race([this.guard.check(url), aborted(signal)]);
    if (verdict === undefined) return { error: `no answer within ${this.timeoutMs / 1000} s` };
    if (!verdict.allowed) return { error: `refused: the URL ${verdict.reason}` };
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Pricebook-Webhooks/1',
      ...signatureHeaders(secret, messageId, Math.floor(now / 1000), body),
    };
    try {
      return await this.transport.post({ target: verdict.target, headers, body, signal, maxResponseBytes: MAX_RESPONSE_BYTES });
    } catch (error) {
      if (signal.aborted) return { error: `no answer within ${this.timeoutMs / 1000} s` };
      return { error: `request failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500) };
    }
  }
}

/** Resolves (with undefined) when the signal aborts. */
function aborted(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
}
