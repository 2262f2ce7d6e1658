import type { RateDecision, RateLimiter } from './rate-limiter.js';

/** Runs a command against the shared store; `undefined` when the store cannot answer. */
export type SharedStoreGate = <T>(command: () => Promise<T>) => Promise<{ value: T } | undefined>;

/**
 * The shared (Redis) buckets while their store answers, this instance's own buckets while it
 * does not. A limiter whose store is down must not refuse all traffic, nor let all of it
 * through: each instance then enforces the limit on its own, so a client spread over N
 * instances gets at most N times its allowance for as long as the outage lasts.
 */
export class FallbackRateLimiter implements RateLimiter {
  constructor(
    private readonly shared: RateLimiter,
    private readonly local: RateLimiter,
    private readonly gate: SharedStoreGate,
  ) {}

  async take(key: string): Promise<RateDecision> {
    const answer = await this.gate(async () => this.shared.take(key));
    return answer === undefined ? this.local.take(key) : answer.value;
  }

  async peek(key: string): Promise<RateDecision> {
    const answer = await this.gate(async () => this.shared.peek(key));
    return answer === undefined ? this.local.peek(key) : answer.value;
  }

  /**
   * To the store that answers now. A place taken on one side of an outage's edge and given back
   * on the other stays taken until it leaks (conservative), or frees one place too many (one
   * per edge a reservation straddles).
   */
  async giveBack(key: string): Promise<void> {
    const answer = await this.gate(() => this.shared.giveBack(key));
    if (answer === undefined) await this.local.giveBack(key);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.shared.close(), this.local.close()]);
  }
}
