import type { Readable } from 'node:stream';

/** The client closed the connection before its body arrived whole. */
export class BodyAborted extends Error {
  constructor() {
    super('The client went away before the whole body arrived');
  }
}

/**
 * Reads a request body piece by piece, handing each to `take` and waiting for it before the
 * next is read: the socket is paused meanwhile, so a fast client waits for the storage, and the
 * process holds one piece at a time whatever the body's size. When `take` throws, reading stops
 * and the rest of the body is drained unread (so the answer can still go out on the
 * connection), and the error is thrown. A client that goes away is `BodyAborted`, once the
 * piece under way is done with.
 */
export function readPieces(stream: Readable, take: (piece: Buffer) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let busy = false;
    let ended = false;
    let gone: Error | undefined;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onGone);
      stream.removeListener('close', onClose);
      // An error the stream reports later (a reset while it drains) must not go unheard.
      stream.on('error', () => undefined);
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onData = (piece: Buffer) => {
      stream.pause();
      busy = true;
      take(piece).then(
        () => {
          busy = false;
          if (gone !== undefined) settle(gone);
          else if (ended) settle();
          else stream.resume();
        },
        (error: unknown) => {
          busy = false;
          stream.removeListener('data', onData);
          // Nothing reads the rest: it flows to nowhere until the request ends.
          if (!stream.destroyed) stream.resume();
          settle(error);
        },
      );
    };
    const onEnd = () => {
      ended = true;
      if (!busy) settle();
    };
    const onGone = () => {
      gone = new BodyAborted();
      if (!busy) settle(gone);
    };
    const onClose = () => {
      if (!ended) onGone();
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onGone);
    stream.on('close', onClose);
    stream.resume();
  });
}
