import pino, { type DestinationStream, type Logger } from 'pino';

/** Fields no log line may show: credentials, session cookies, passwords. */
export const REDACTED_PATHS = ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.token', '*.password', '*.currentPassword', '*.newPassword'];

/**
 * The most log text held in memory waiting to be written, when whatever reads stdout has
 * stopped reading: past it, new lines are dropped rather than held (or the server stopped).
 */
export const MAX_UNWRITTEN_LOG_BYTES = 32 * 1024 * 1024;

/** Where the server's log goes, and the logger of its one line a request. */
export interface AppLogs {
  /** Fastify's logger options: the level, the redacted fields and the destination. */
  options: { level: string; stream: DestinationStream; redact: string[] };
  /**
   * The request lines (http/plugins/request-log.ts): the same destination and level, without
   * the redaction, which costs a walk of its paths on every line and has nothing to find in a
   * line made of the request's method, path, status, time, ids and address.
   */
  requests: Logger;
}

/**
 * The log on `stream` (a terminal's readable form, a test's capture) or, by default, on stdout
 * through an asynchronous buffer (sonic-boom, as pino makes it): a request's line is a copy
 * into memory, and the lines written while a write is under way go out together in the next
 * one, so a busy server makes one write(2) for many requests, not one each. pino writes what
 * is left when the process exits, after a fatal error too; a SIGKILL loses the lines of the
 * last moment, never stored data.
 */
export function createLogs(level: string, stream?: DestinationStream): AppLogs {
  const destination = stream ?? pino.destination({ dest: 1, sync: false, maxLength: MAX_UNWRITTEN_LOG_BYTES });
  return {
    options: { level, stream: destination, redact: REDACTED_PATHS },
    requests: pino({ level }, destination),
  };
}
