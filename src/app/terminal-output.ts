import { isIPv6 } from 'node:net';
import pinoPretty from 'pino-pretty';
import type { DestinationStream } from 'pino';

/** Fields of the request log line (http/plugins/request-log.ts) that its readable form puts in the message. */
const REQUEST_FIELDS = ['method', 'path', 'status', 'ms', 'storeId', 'keyId', 'staffId', 'ip'] as const;

/**
 * The log as a person at a terminal reads it (pino-pretty): a time, the level, the message and
 * the other fields on one line; a request is `GET /v1/customers 200 3.2 ms store 1 key 1 from 127.0.0.1`.
 * Only for a terminal: logs into a pipe, a file or a service manager stay JSON, one object a line.
 */
export function readableLogStream(out: NodeJS.WritableStream): DestinationStream {
  return pinoPretty({
    destination: out,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    singleLine: true,
    ignore: ['pid', 'hostname', ...REQUEST_FIELDS].join(','),
    messageFormat: (log, messageKey) => {
      const message = String(log[messageKey] ?? '');
      if (message !== 'request' || typeof log.method !== 'string') return message;
      const who = [
        log.storeId === undefined ? '' : ` store ${String(log.storeId)}`,
        log.keyId === undefined ? '' : ` key ${String(log.keyId)}`,
        log.staffId === undefined ? '' : ` staff ${String(log.staffId)}`,
      ].join('');
      return `${log.method} ${String(log.path)} ${String(log.status)} ${String(log.ms)} ms${who} from ${String(log.ip)}`;
    },
  });
}

/**
 * The host to put in a URL a person can paste: a wildcard or loopback bind address becomes
 * `localhost` (the name of the generated certificate), an IPv6 address gets its brackets.
 */
export function displayHost(bindHost: string): string {
  if (['0.0.0.0', '::', '127.0.0.1', '::1'].includes(bindHost)) return 'localhost';
  return isIPv6(bindHost) ? `[${bindHost}]` : bindHost;
}

/** Fastify's "Server listening at …" names the scheme of a plain server; ours speaks TLS. */
export function listeningText(address: string): string {
  return `Server listening at ${address.replace(/^http:\/\//, 'https://')}`;
}

/** The lines `pricebook serve` prints at a terminal once it listens: where the API, its reference and the admin page are. */
export function startBanner(origin: string): string {
  return ['', 'Pricebook is running:', '', `  API          ${origin}/v1`, `  Reference    ${origin}/docs`, `  Admin page   ${origin}/admin`, ''].join('\n');
}
