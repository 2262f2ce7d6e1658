import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { decide, LEVEL_UNIT, leakPerMillisecond, type LeakyBucketOptions, type RateDecision, type RateLimiter } from './rate-limiter.js';

/**
 * One bucket per key, a hash {level, at}: level in millionths of a request, `at` in Redis's own
 * milliseconds (`TIME`), so the instances' clocks never matter. Reads, leaks and takes in one
 * atomic step; writes only when a place is taken (the leak is linear, so an unwritten leak is
 * the same as a written one), and the key expires when the bucket would be empty again.
 *
 * KEYS[1] bucket; ARGV: capacity (units), leak (units per ms), one place (units), and what to
 * do: `1` take a place if there is one, `0` only look, `-1` give one place back (never below
 * empty; an empty bucket's key is deleted). Returns the level before this request's change,
 * after the leak: `decide` does the rest.
 * Lua numbers are doubles: every value here stays far below 2^53, and `%.0f` writes them whole
 * (`tostring` would switch to exponents past 1e14).
 */
const LEAKY_BUCKET_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local capacity = tonumber(ARGV[1])
local leak = tonumber(ARGV[2])
local unit = tonumber(ARGV[3])
local level = 0
local stored = redis.call('HMGET', KEYS[1], 'level', 'at')
if stored[1] and stored[2] then
  local elapsed = math.max(0, now - tonumber(stored[2]))
  level = math.max(0, tonumber(stored[1]) - elapsed * leak)
end
local after = level
if ARGV[4] == '1' and level + unit <= capacity then
  after = level + unit
elseif ARGV[4] == '-1' then
  after = math.max(0, level - unit)
end
if after > 0 and after ~= level then
  redis.call('HSET', KEYS[1], 'level', string.format('%.0f', after), 'at', string.format('%.0f', now))
  redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.ceil(after / leak)))
elseif after == 0 and ARGV[4] == '-1' then
  redis.call('DEL', KEYS[1])
end
return level
`;
const SCRIPT_SHA = createHash('sha1').update(LEAKY_BUCKET_SCRIPT).digest('hex');
/** The script's last argument. */
const ACTION = { take: 1, peek: 0, give: -1 } as const;

/**
 * Leaky buckets in Redis, shared by every instance, with exactly the memory buckets'
 * arithmetic and answers. A Redis failure is thrown: `FallbackRateLimiter` decides what then.
 */
export class RedisRateLimiter implements RateLimiter {
  /**
   * @param namespace prefix of this limiter's keys, e.g. `pricebook:rate:`; the caller's key
   *   goes in braces after it (a Redis Cluster hash tag: one bucket, one slot).
   */
  constructor(
    private readonly client: Redis,
    private readonly options: LeakyBucketOptions,
    private readonly namespace: string,
  ) {}

  async take(key: string): Promise<RateDecision> {
    return decide(await this.run(key, 'take'), this.options, true).decision;
  }

  async peek(key: string): Promise<RateDecision> {
    return decide(await this.run(key, 'peek'), this.options, false).decision;
  }

  async giveBack(key: string): Promise<void> {
    await this.run(key, 'give');
  }

  /** The client belongs to the connection that made it, which closes it. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /** The Redis key of a bucket. */
  keyOf(key: string): string {
    return `${this.namespace}{${key}}`;
  }

  /** Runs the script; the level before the change, after the leak (units). */
  private async run(key: string, action: keyof typeof ACTION): Promise<number> {
    const args = [this.options.bucketSize * LEVEL_UNIT, leakPerMillisecond(this.options), LEVEL_UNIT, ACTION[action]];
    const redisKey = this.keyOf(key);
    let reply: unknown;
    try {
      reply = await this.client.evalsha(SCRIPT_SHA, 1, redisKey, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      reply = await this.client.eval(LEAKY_BUCKET_SCRIPT, 1, redisKey, ...args);
    }
    if (typeof reply !== 'number') throw new Error(`leaky-bucket script answered ${typeof reply}, expected an integer`);
    return reply;
  }
}
