/** What the load process (load.ts) fires, written by run.ts to a JSON file. */
export interface LoadSpec {
  /** `https://127.0.0.1:PORT`; only 127.0.0.1 is accepted. */
  url: string;
  method: 'GET' | 'POST';
  /** Requested in turn by all connections together. */
  paths: string[];
  headers: Record<string, string>;
  /** File holding the request body, sent with every request. */
  bodyFile?: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface LoadResult {
  /** 2xx responses in the measured run. */
  ok: number;
  /** Responses with another status: a bench with any is not measuring what it says. */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  seconds: number;
  /** 2xx responses per second. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  statusCodes: Record<string, number>;
}
