import { createHash } from 'node:crypto';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';

/**
 * Failed staff sign-ins, counted twice: per account (the e-mail's key, whether an account has
 * it or not, so the answer for an unknown e-mail is throttled the same) and per client address
 * (the bucket failed credentials of API keys fill too). Once either is full, sign-in answers 429
 * with `Retry-After` before a password is even checked.
 */
export class SignInThrottle {
  constructor(
    private readonly perAccount: RateLimiter,
    private readonly perAddress: RateLimiter,
  ) {}

  /** Seconds to wait when sign-in is refused for now; undefined when it may be tried. */
  async refusal(emailKey: string, address: string): Promise<number | undefined> {
    const [account, client] = await Promise.all([this.perAccount.peek(accountKey(emailKey)), this.perAddress.peek(addressKey(address))]);
    return waitOf(account.allowed, account.retryAfterSeconds, client.allowed, client.retryAfterSeconds);
  }

  /** Counts a failure; seconds to wait when it filled a bucket (the answer is then a 429). */
  async failed(emailKey: string, address: string): Promise<number | undefined> {
    const [account, client] = await Promise.all([this.perAccount.take(accountKey(emailKey)), this.perAddress.take(addressKey(address))]);
    return waitOf(account.allowed, account.retryAfterSeconds, client.allowed, client.retryAfterSeconds);
  }
}

/** E-mails go into the bucket's key (and Redis) only as a hash. */
function accountKey(emailKey: string): string {
  return `signin:${createHash('sha256').update(emailKey, 'utf8').digest('hex').slice(0, 32)}`;
}

/** The same key as failed credentials (http/plugins/authenticate.ts): one budget per address. */
function addressKey(address: string): string {
  return `authfail:${address}`;
}

function waitOf(accountAllowed: boolean, accountWait: number, clientAllowed: boolean, clientWait: number): number | undefined {
  if (accountAllowed && clientAllowed) return undefined;
  return Math.max(accountAllowed ? 0 : accountWait, clientAllowed ? 0 : clientWait, 1);
}
