import { Redis } from 'ioredis';
import type { RateLimiterModeChange, RateLimiterStatus } from './rate-limiter-status.js';

export interface RedisConnectionOptions {
  /** Milliseconds to wait for a TCP connection (and at start, for the first one); default 1000. */
  connectTimeoutMs?: number;
  /** Milliseconds a command may take before it counts as failed; default 500. */
  commandTimeoutMs?: number;
  /** Longest pause between reconnection attempts, in milliseconds; default 1000. */
  maxReconnectDelayMs?: number;
  /**
   * While Redis is down but connected, milliseconds after a failed command before a request
   * tries Redis again; default 1000. Until then every command goes local at once, so a request
   * whose first command timed out does not wait again for its next one.
   */
  probeIntervalMs?: number;
}

type State = 'up' | 'down';

/**
 * The limiters' Redis client and whether Redis answers. Nothing waits on a dead Redis: commands
 * are not queued while disconnected (they fail at once), a hung server fails them after the
 * command timeout, and the client keeps reconnecting in the background. An outage begins at the
 * first failure and ends when a command succeeds again or the client reconnects; listeners hear
 * of each change once.
 */
export class RedisConnection implements RateLimiterStatus {
  readonly client: Redis;
  private state: State = 'down';
  private cause: unknown = new Error('not connected yet');
  private closing = false;
  /** While Redis is down but connected, one request at a time tries it (see `probeIntervalMs`); the rest go local. */
  private probing = false;
  /** `performance.now()` before which no request tries a down Redis. */
  private nextProbeAt = 0;
  private readonly probeIntervalMs: number;
  private readonly listeners = new Set<(change: RateLimiterModeChange) => void>();

  private constructor(url: string, options: RedisConnectionOptions) {
    const maxDelay = options.maxReconnectDelayMs ?? 1000;
    this.probeIntervalMs = options.probeIntervalMs ?? 1000;
    this.client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: options.connectTimeoutMs ?? 1000,
      commandTimeout: options.commandTimeoutMs ?? 500,
      retryStrategy: (attempt) => Math.min(attempt * 100, maxDelay),
      // How long closing waits for a socket to end; ioredis' 2 s would delay the CLI's exit.
      disconnectTimeout: 200,
    });
    this.client.on('ready', () => this.markUp());
    this.client.on('close', () => this.markDown(new Error('connection to Redis closed')));
    this.client.on('error', (error: Error) => this.markDown(error));
  }

  /** Connects, waiting at most the connect timeout; a Redis that is down now is retried in the background. */
  static async open(url: string, options: RedisConnectionOptions = {}): Promise<RedisConnection> {
    const connection = new RedisConnection(url, options);
    await connection.client.connect().catch((error: unknown) => connection.markDown(error));
    return connection;
  }

  mode(): 'redis' | 'local-fallback' {
    return this.state === 'up' ? 'redis' : 'local-fallback';
  }

  onChange(listener: (change: RateLimiterModeChange) => void): () => void {
    this.listeners.add(listener);
    if (this.state === 'down' && !this.closing) listener({ mode: 'local-fallback', cause: this.cause });
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `command` when Redis can take it. `undefined` when it cannot (disconnected, or down
   * and already being probed or failed less than the probe interval ago) or the command failed,
   * which starts an outage. So a request waits on a hung Redis for one command timeout at most.
   */
  async attempt<T>(command: () => Promise<T>): Promise<{ value: T } | undefined> {
    if (this.client.status !== 'ready') return undefined;
    const probe = this.state === 'down';
    if (probe && (this.probing || performance.now() < this.nextProbeAt)) return undefined;
    if (probe) this.probing = true;
    try {
      const value = await command();
      this.markUp();
      return { value };
    } catch (error) {
      this.nextProbeAt = performance.now() + this.probeIntervalMs;
      this.markDown(error);
      return undefined;
    } finally {
      if (probe) this.probing = false;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.listeners.clear();
    if (this.client.status === 'ready') {
      try {
        await this.client.quit();
        return;
      } catch {
        // Fall through: drop the connection.
      }
    }
    this.client.disconnect();
  }

  private markUp(): void {
    if (this.state === 'up' || this.closing) return;
    this.state = 'up';
    this.emit({ mode: 'redis' });
  }

  private markDown(cause: unknown): void {
    if (this.closing) return;
    this.cause = cause;
    if (this.state === 'down') return;
    this.state = 'down';
    this.emit({ mode: 'local-fallback', cause });
  }

  private emit(change: RateLimiterModeChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
