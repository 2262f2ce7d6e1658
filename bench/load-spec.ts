/** What the load process (load.ts) fires, written by run.ts to a JSON file. */
export interface LoadSpec {
  /** `https://127.0.0.1:PORT`; only 127.0.0.1 is accepted. */
  url: string;
  method: 'GET' | 'POST';
  /** What the requests ask for, in turn, shared by all connections together. */
  paths: PathWalk;
  headers: Record<string, string>;
  /** File holding the request body, sent with every request. */
  bodyFile?: string;
  /** Files holding request bodies, sent in turn (request n sends the (n mod count)-th); instead of `bodyFile`. */
  bodyFiles?: string[];
  /**
   * Every other request (the 1st, 3rd, …) carries an `Idempotency-Key` of its own:
   * `<prefix>-<n>`. The prefix must be new for every load process (a key sent again would be
   * answered from the stored response, not created).
   */
  idempotencyKeyPrefix?: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

/**
 * The request paths, request n asking for `pathAt(walk, start + n)`:
 * - `fixed`: one path;
 * - `ids`: `<prefix><id>` for every id from `min` to `max`, each once per `max - min + 1`
 *   requests, in an order that jumps across the range (no two neighbours in a row);
 * - `pages`: the pages of `pageSize` of `<prefix>?customerId=C&count=…&offset=…`, customers in
 *   turn, each on every one of its `pages` pages once per `customerIds.length × pages`
 *   requests, in an order that jumps across them.
 * - `paths`: each of `paths` once per `paths.length` requests, in an order that jumps across them.
 * `start` lets the walk go on where the previous slice stopped.
 */
export type PathWalk =
  | { kind: 'fixed'; path: string }
  | { kind: 'paths'; paths: string[]; start: number }
  | { kind: 'ids'; prefix: string; min: number; max: number; start: number }
  | { kind: 'pages'; prefix: string; customerIds: number[]; pages: number; pageSize: number; start: number };

/** A prime larger than any range walked: `(n × STRIDE) mod span` visits every residue once per span. */
const STRIDE = 2_654_435_761;

function spread(n: number, span: number): number {
  // In BigInt: n × STRIDE passes 2^53 from n ≈ 3.4 million on.
  return Number((BigInt(n) * BigInt(STRIDE)) % BigInt(span));
}

export function pathAt(walk: PathWalk, n: number): string {
  switch (walk.kind) {
    case 'fixed':
      return walk.path;
    case 'paths':
      return walk.paths[spread(walk.start + n, walk.paths.length)]!;
    case 'ids':
      return `${walk.prefix}${walk.min + spread(walk.start + n, walk.max - walk.min + 1)}`;
    case 'pages': {
      const i = walk.start + n;
      const customers = walk.customerIds.length;
      const page = spread(Math.floor(i / customers), walk.pages);
      return `${walk.prefix}?customerId=${walk.customerIds[i % customers]}&count=${walk.pageSize}&offset=${page * walk.pageSize}`;
    }
  }
}

export interface LoadResult {
  /** 2xx responses in the measured run. */
  ok: number;
  /** Responses with another status: a bench with any is not measuring what it says. */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Requests sent in the measured run (the next slice's walk starts after them). */
  sent: number;
  seconds: number;
  /** 2xx responses per second. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  statusCodes: Record<string, number>;
}
