import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RateLimiterMode, RateLimiterStatus } from '../rate-limit/rate-limiter-status.js';

/** Requests that matched no route share this route label, so no URL a client sends becomes a label. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Which bucket refused a request with 429. */
export type RateLimitRefusal = 'credential' | 'auth_failures';

/** Seconds: from a cached read (~1 ms) to the slow-client limit (30 s). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LIMITER_MODES: readonly RateLimiterMode[] = ['redis', 'local-fallback', 'memory'];

/** The API's requests, as the HTTPS app (and the plain-HTTP listener through it) answers them. */
export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private readonly refusals: Counter<'limiter'>;
  private readonly authFailures: Counter;

  constructor(registry: Registry, limiterStatus: RateLimiterStatus) {
    const labelNames = ['method', 'route', 'status'] as const;
    this.requests = new Counter({
      name: 'pricebook_http_requests_total',
      help: `Requests answered, by method, route template (${UNMATCHED_ROUTE} when no route matched) and status`,
      labelNames,
      registers: [registry],
    });
    this.durations = new Histogram({
      name: 'pricebook_http_request_duration_seconds',
      help: 'Time from the request to its answer, by method, route template and status',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    this.refusals = new Counter({
      name: 'pricebook_rate_limit_refusals_total',
      help: 'Requests refused with 429: limiter="credential" (the per-credential bucket), "auth_failures" (an address with too many failed authentications)',
      labelNames: ['limiter'],
      registers: [registry],
    });
    this.authFailures = new Counter({
      name: 'pricebook_auth_failures_total',
      help: 'Requests refused with 401: missing, malformed, unknown or revoked credentials',
      registers: [registry],
    });
    new Gauge({
      name: 'pricebook_rate_limiter_mode',
      help: 'Where the rate-limit buckets live now (1 for the current mode): redis (shared), local-fallback (Redis configured but not answering: each instance limits alone), memory (no Redis configured)',
      labelNames: ['mode'],
      registers: [registry],
      collect() {
        const current = limiterStatus.mode();
        for (const mode of LIMITER_MODES) this.set({ mode }, mode === current ? 1 : 0);
      },
    });
    for (const limiter of ['credential', 'auth_failures'] satisfies RateLimitRefusal[]) this.refusals.inc({ limiter }, 0);
  }

  /** `route` is the route's template (`/v1/customers/:id`), never the URL as sent. */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method, route: route ?? UNMATCHED_ROUTE, status: String(status) };
    this.requests.inc(labels);
    this.durations.observe(labels, seconds);
  }

  countRateLimitRefusal(limiter: RateLimitRefusal): void {
    this.refusals.inc({ limiter });
  }

  countAuthFailure(): void {
    this.authFailures.inc();
  }
}
