import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ReceiverTarget } from './receiver-guard.js';

export interface OutgoingPost {
  target: ReceiverTarget;
  headers: Record<string, string>;
  body: string;
  /** Aborts the whole exchange: connection, request and response. */
  signal: AbortSignal;
  /** Response bytes kept; the rest is not read. */
  maxResponseBytes: number;
}

export interface ReceiverResponse {
  status: number;
  /** At most `maxResponseBytes` of it, as UTF-8. */
  body: string;
}

/** One POST to a receiver. Rejects on network errors and on abort; never follows redirects. */
export interface WebhookTransport {
  post(request: OutgoingPost): Promise<ReceiverResponse>;
  close(): void;
}

/**
 * Node's HTTP client. The connection goes to the guard's checked address: the `lookup` option
 * answers with it instead of resolving the name again, while TLS still verifies the
 * certificate against the URL's host name. Kept-alive sockets are reused only for the same
 * host and port, and each was opened to an address that passed the check.
 */
export class NodeHttpTransport implements WebhookTransport {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 16 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 16 });

  post({ target, headers, body, signal, maxResponseBytes }: OutgoingPost): Promise<ReceiverResponse> {
    const secure = target.url.protocol === 'https:';
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all === true) callback(null, [{ address: target.address.address, family: target.address.family }]);
      else callback(null, target.address.address, target.address.family);
    };
    return new Promise<ReceiverResponse>((resolve, reject) => {
      const request = (secure ? https : http).request(
        target.url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: secure ? this.httpsAgent : this.httpAgent,
          lookup: pinned,
          signal,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          const finish = () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
          response.on('data', (chunk: Buffer) => {
            if (kept >= maxResponseBytes) return;
            chunks.push(chunk.subarray(0, maxResponseBytes - kept));
            kept += chunk.length;
            if (kept >= maxResponseBytes) {
              // Enough read: the status and the start of the body are all that count.
              finish();
              response.destroy();
            }
          });
          response.on('end', finish);
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
