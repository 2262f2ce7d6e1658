import { OPERATIONS, type OperationName, operationPath, type PathParams, queryString } from './operations.js';
import type { Pacer } from './pacer.js';
import { PricebookError } from './pricebook-error.js';
import type { ResponseHeaders, Transport, TransportRequest } from './transport.js';

export interface CallOptions {
  params?: PathParams;
  query?: object;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is with `Content-Type: text/csv` (imports). */
  csv?: string | Uint8Array;
  /** 1–255 printable ASCII characters: the same key and body within 24 h replays the first answer. */
  idempotencyKey?: string;
}

/** Options of every create (POST) that takes an `Idempotency-Key`. */
export interface CreateOptions {
  /** 1–255 printable ASCII characters: a retry with the same key and body within 24 h replays the first answer and creates nothing. */
  idempotencyKey?: string;
}

export interface CallResult<T> {
  status: number;
  headers: ResponseHeaders;
  /** The parsed JSON answer; undefined for a 204. */
  body: T;
}

/** What the resources send requests through. */
export interface Caller {
  /** The answer's body; a status ≥ 400 throws a PricebookError. */
  call<T>(operation: OperationName, options?: CallOptions): Promise<T>;
  /** The same, with the status and headers (`idempotent-replayed`). */
  request<T>(operation: OperationName, options?: CallOptions): Promise<CallResult<T>>;
}

/** JSON in and out, the credential on every request, paced; `signal` aborts every request and wait. */
export class ApiCaller implements Caller {
  constructor(
    private readonly transport: Transport,
    private readonly pacer: Pacer,
    /** `Bearer …`; undefined: none (the transport sends a session cookie instead). */
    private readonly authorization: string | undefined,
    private readonly userAgent: string,
    private readonly signal?: AbortSignal,
  ) {}

  async call<T>(operation: OperationName, options: CallOptions = {}): Promise<T> {
    return (await this.request<T>(operation, options)).body;
  }

  async request<T>(operation: OperationName, options: CallOptions = {}): Promise<CallResult<T>> {
    const { method } = OPERATIONS[operation];
    const headers: Record<string, string> = {
      ...(this.authorization !== undefined && { authorization: this.authorization }),
      accept: 'application/json',
      'user-agent': this.userAgent,
    };
    let body: string | Uint8Array | undefined;
    if (options.csv !== undefined) {
      headers['content-type'] = 'text/csv; charset=utf-8';
      body = options.csv;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    const request: TransportRequest = {
      method,
      path: operationPath(operation, options.params) + queryString(options.query),
      headers,
      ...(body !== undefined && { body }),
      ...(this.signal !== undefined && { signal: this.signal }),
    };
    const response = await this.pacer.run(() => this.transport.send(request), this.signal);
    if (response.status >= 400) throw PricebookError.fromResponse(operation, response);
    return { status: response.status, headers: response.headers, body: (response.text === '' ? undefined : JSON.parse(response.text)) as T };
  }
}
