import type { Server as TlsServer, TLSSocket } from 'node:tls';

/**
 * How many bytes of answers a TLS connection may hold unsent before Node stops reading the
 * client's next request: above every answer the API builds whole (a bulk create or replace of
 * 1000 records, a page of 100 with embeds: a few hundred KiB). Streamed answers (exports) wait
 * for the buffer to drain at this mark as they do at Node's default (64 KiB).
 */
export const ANSWER_BUFFER_BYTES = 1024 * 1024;

/**
 * Node's HTTP server stops reading a keep-alive connection while the previous answer waits to be
 * sent beyond the socket's high-water mark, and pauses its parser. On a TLS socket the parser
 * reads the decrypted stream directly, and TLS can still hand it data it had already decrypted:
 * the paused parser then fails the request with `HPE_PAUSED`, and the client, which did nothing
 * wrong, gets a 400 and a closed connection. It happens when a client sends a large request right
 * after reading a large answer while the server's loop is busy (a sync sending replace after
 * replace). With the mark above every answer built whole, the server does not pause there.
 *
 * The mark is set on Node's own writable state: the TLS server creates the sockets itself and
 * takes no option for it (`highWaterMark` of `https.createServer` reaches only the TCP socket).
 */
export function keepReadingBehindLargeAnswers(server: TlsServer): void {
  server.on('secureConnection', (socket: TLSSocket) => {
    // `_writableState` is Node's; `writableHighWaterMark` is its read-only view.
    (socket as unknown as { _writableState: { highWaterMark: number } })._writableState.highWaterMark = ANSWER_BUFFER_BYTES;
  });
}
