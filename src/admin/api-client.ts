import type { ErrorBody } from '../contract/errors.js';

/** One problem of a 422: `field` names the field, `index` the item of a bulk body. */
export type FieldProblem = NonNullable<ErrorBody['errors']>[number];

/** An answer of the API other than 2xx, in its error shape (status 0: no answer at all). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
    readonly problems: readonly FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  /** Sent as `application/json`. */
  json?: unknown;
  /** Sent as `text/csv` (a file as it was chosen, or text). */
  csv?: Blob | string;
  signal?: AbortSignal;
  /** A token to try instead of the signed-in one (signing in); its 401 does not sign out. */
  token?: string;
}

export interface ApiClientOptions {
  /** The signed-in token, if any. */
  token: () => string | undefined;
  /** A 429 is being waited out for `seconds`; 0 when the wait is over. */
  onRateLimitWait: (seconds: number) => void;
  /** The signed-in token was refused (revoked, or the store is gone). */
  onUnauthenticated: () => void;
}

/** 429s one request waits out before it reports one; each wait is what `Retry-After` says, at most a minute. */
const MAX_RATE_LIMIT_WAITS = 20;
const MAX_WAIT_SECONDS = 60;
/** Records per page when reading a whole list: the API's largest page. */
export const PAGE_SIZE = 100;
/** Pages one whole-list read takes at most (100 000 records). */
const MAX_PAGES = 1000;

/**
 * The public API under `/v1`, as any client calls it: Bearer token, JSON, the API's errors as
 * `ApiError`. A 429 is not a failure: the request waits as long as `Retry-After` says and is
 * sent again.
 */
export class ApiClient {
  constructor(private readonly options: ApiClientOptions) {}

  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
    return this.send<T>('GET', path, { query, signal });
  }

  post<T>(path: string, json: unknown, options: Omit<RequestOptions, 'json'> = {}): Promise<T> {
    return this.send<T>('POST', path, { ...options, json });
  }

  put<T>(path: string, json: unknown, signal?: AbortSignal): Promise<T> {
    return this.send<T>('PUT', path, { json, signal });
  }

  async delete(path: string, signal?: AbortSignal): Promise<void> {
    await this.send<unknown>('DELETE', path, { signal });
  }

  /** Every record of a list, page after page (ordered by id, as the API lists them). */
  async all<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T[]> {
    const records: T[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const batch = await this.get<T[]>(path, { ...query, count: PAGE_SIZE, offset: page * PAGE_SIZE }, signal);
      records.push(...batch);
      if (batch.length < PAGE_SIZE) break;
    }
    return records;
  }

  async send<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = options.token ?? this.options.token();
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let body: Blob | string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.csv !== undefined) {
      body = options.csv;
      headers['content-type'] = 'text/csv; charset=utf-8';
    }
    const url = `/v1${path}${queryString(options.query)}`;
    for (let waits = 0; ; waits++) {
      let response: Response;
      try {
        response = await fetch(url, { method, headers, body, signal: options.signal, credentials: 'omit', cache: 'no-store' });
      } catch (error) {
        if (options.signal?.aborted === true) throw error;
        throw new ApiError(0, undefined, 'The server did not answer; check the connection and try again');
      }
      if (response.status === 429 && waits < MAX_RATE_LIMIT_WAITS) {
        const seconds = retryAfterSeconds(response.headers.get('retry-after'));
        this.options.onRateLimitWait(seconds);
        try {
          await sleep(seconds * 1000, options.signal);
        } finally {
          this.options.onRateLimitWait(0);
        }
        continue;
      }
      const parsed = parseJson(await response.text());
      if (response.ok) return parsed as T;
      const error = isErrorBody(parsed) ? parsed : undefined;
      if (response.status === 401 && options.token === undefined) this.options.onUnauthenticated();
      throw new ApiError(response.status, error?.code, error?.message ?? `The server answered ${response.status}`, error?.errors ?? []);
    }
  }
}

function queryString(query: Query | undefined): string {
  if (query === undefined) return '';
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) parameters.set(name, String(value));
  const text = parameters.toString();
  return text === '' ? '' : `?${text}`;
}

function retryAfterSeconds(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 1 ? Math.min(Math.ceil(seconds), MAX_WAIT_SECONDS) : 1;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, milliseconds);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
