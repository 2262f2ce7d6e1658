import { FetchTransport, Pricebook, type Transport } from '@pricebook/client/browser';

export interface AdminClientOptions {
  /** Aborted when the page moves on: the requests and waits under way end with it. */
  signal: AbortSignal;
  /** A 429 is being waited out for `seconds`; 0 when the wait is over. Left out: a 429 is not waited out but thrown (signing in). */
  onRateLimitWait?: (seconds: number) => void;
  /** The session was refused (signed out elsewhere, expired, the account disabled); left out when signing in. */
  onUnauthenticated?: () => void;
}

/**
 * A 429 is not a failure: the request waits as long as `Retry-After` says (at most a minute)
 * and is sent again, up to 20 times; requests never wait ahead of a 429, nor for one another.
 */
const RATE_LIMIT_WAITS = { waitAhead: false, maxRetries: 20, maxRetryAfterMs: 60_000 } as const;

/**
 * The typed client (@pricebook/client/browser) as the page uses it: the public API of the server that served
 * the page, through `fetch`, no request deadline (an upload takes what it takes). Its
 * credential is the staff session's cookie (`sessionCookie`: no token, no `Authorization`),
 * sent by the browser to this origin only. A request that gets no answer fails with a message
 * saying so; a 401 is also told to `onUnauthenticated`.
 */
export function adminClient(options: AdminClientOptions): Pricebook {
  const fetchTransport = new FetchTransport({ baseUrl: location.origin, timeoutMs: 0, credentials: 'same-origin' });
  const transport: Transport = {
    async send(request) {
      let response;
      try {
        response = await fetchTransport.send(request);
      } catch (error) {
        if (request.signal?.aborted === true) throw error;
        throw new Error('The server did not answer; check the connection and try again', { cause: error });
      }
      if (response.status === 401) options.onUnauthenticated?.();
      return response;
    },
    close: () => fetchTransport.close(),
  };
  const { onRateLimitWait } = options;
  return new Pricebook({
    baseUrl: location.origin,
    sessionCookie: true,
    signal: options.signal,
    transport,
    pacing: onRateLimitWait === undefined ? false : { ...RATE_LIMIT_WAITS, onWait: (waitMs) => onRateLimitWait(Math.ceil(waitMs / 1000)) },
  });
}
