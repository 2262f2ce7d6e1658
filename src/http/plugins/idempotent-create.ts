import { createHash, type Hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import type { IdempotencyService } from '../../modules/idempotency/idempotency-service.js';
import { principalOf } from './app-types.js';
import { answerInTurns, jsonInTurns, jsonPartsInTurns } from './json-in-turns.js';
import type { CreatedRecord } from '../../modules/idempotency/idempotency-repository.js';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Answers 201 with what `create` made. With an `Idempotency-Key` header the create runs
     * under that key: repeats replay the first answer with `Idempotent-Replayed: true`.
     */
    sendCreated(create: () => Promise<unknown>): Promise<FastifyReply>;
    /**
     * As above, with `prepare` run first, outside any transaction, and only when the request
     * is not a replay: work that must not hold the database (a network handshake).
     */
    sendCreated<P>(create: (prepared: P) => Promise<unknown>, prepare: () => Promise<P>): Promise<FastifyReply>;
    /**
     * `sendCreated` for a write that answers another status: a replace's 200, an import's 202.
     * The same `Idempotency-Key` rules apply; a key's first answer is replayed with its status.
     * The answer (a replace's: up to 20 000 records) is written in steps (`jsonInTurns`).
     */
    sendIdempotent(statusCode: number, work: () => Promise<unknown>): Promise<FastifyReply>;
    /**
     * Whether this request's `Idempotency-Key` (checked first: a malformed one is a 400) already
     * has an answer for this credential: the request will be replayed (or refused, if its body
     * differs), so a streamed body need not be stored, only fingerprinted.
     */
    hasIdempotentAnswer(): Promise<boolean>;
  }
  interface FastifyRequest {
    /** The fingerprint of a body read as a stream (`bodyFingerprint`), for the idempotency key. */
    bodyFingerprint: string | undefined;
  }
}

/** 1–255 printable ASCII characters. */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

export function registerIdempotentCreate(app: FastifyInstance, idempotency: IdempotencyService): void {
  app.decorateRequest('bodyFingerprint', undefined);
  app.decorateReply('hasIdempotentAnswer', async function hasIdempotentAnswer(this: FastifyReply) {
    const key = idempotencyKeyOf(this.request);
    if (key === undefined) return false;
    const { storeId, idempotencyOwnerId } = principalOf(this.request);
    return idempotency.hasAnswer({ storeId, keyId: idempotencyOwnerId }, key);
  });
  app.decorateReply('sendCreated', function sendCreated(this: FastifyReply, create: (prepared: unknown) => Promise<unknown>, prepare?: () => Promise<unknown>) {
    return sendUnderKey(this, idempotency, 201, create, prepare, 'whole');
  });
  app.decorateReply('sendIdempotent', function sendIdempotent(this: FastifyReply, statusCode: number, work: () => Promise<unknown>) {
    return sendUnderKey(this, idempotency, statusCode, work, undefined, 'in-turns');
  });
}

async function sendUnderKey(
  reply: FastifyReply,
  idempotency: IdempotencyService,
  statusCode: number,
  create: (prepared: unknown) => Promise<unknown>,
  prepare: (() => Promise<unknown>) | undefined,
  answer: 'whole' | 'in-turns',
): Promise<FastifyReply> {
  const { request } = reply;
  const key = idempotencyKeyOf(request);
  const serialize = answer === 'whole' ? async (record: unknown) => JSON.stringify(record) : jsonInTurns;
  if (key === undefined) {
    const record = await create(await prepare?.());
    // A small answer goes through the route's response schema, as any other.
    if (answer === 'whole') return reply.code(statusCode).send(record);
    return sendInTurns(reply.code(statusCode), await jsonPartsInTurns(record));
  }
  const fingerprint =
    request.bodyFingerprint ??
    startFingerprint(request)
      .update(request.rawBody ?? Buffer.alloc(0))
      .digest('hex');
  let prepared: unknown;
  const { storeId, idempotencyOwnerId } = principalOf(request);
  const outcome = await idempotency.run(
    { storeId, keyId: idempotencyOwnerId },
    key,
    fingerprint,
    async () => {
      const record = await create(prepared);
      return { statusCode, body: await serialize(record), created: createdRecord(request.routeOptions.url, record) };
    },
    prepare &&
      (async () => {
        prepared = await prepare();
      }),
  );
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  if (answer === 'in-turns') return sendInTurns(reply.code(outcome.statusCode), [outcome.body]);
  return reply.code(outcome.statusCode).type(JSON_TYPE).send(outcome.body);
}

/** A large answer (a replace's), handed to the socket in turns (`answerInTurns`). */
function sendInTurns(reply: FastifyReply, parts: readonly string[]): FastifyReply {
  const { body, contentLength } = answerInTurns(parts);
  return reply.type(JSON_TYPE).header('content-length', String(contentLength)).send(body);
}

/** The request's `Idempotency-Key`, if it has one; a malformed one (or two of them) is a 400. */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  // Node joins repeated headers with ", ": count the raw ones, or two keys would pass as one.
  if (typeof key !== 'string' || !KEY_FORMAT.test(key) || headerCount(request.raw.rawHeaders, 'idempotency-key') > 1) {
    throw new AppError('invalid_query', "Invalid header 'Idempotency-Key': it must be given once, as 1 to 255 printable ASCII characters");
  }
  return key;
}

/**
 * The fingerprint of a request under a key, before its body: a hash that the body's bytes
 * complete (at once, or piece by piece as a stream arrives). The query counts where there is
 * one (an import's mode): the same body another way is another request.
 */
export function startFingerprint(request: FastifyRequest): Hash {
  return createHash('sha256').update(`${request.method} ${request.url}\n`);
}

/** How many times a header came, by its raw name/value pairs. */
function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) if (rawHeaders[index]!.toLowerCase() === name) count += 1;
  return count;
}

/** The record a single-record create made (bulk creates answer an array: none). */
function createdRecord(route: string | undefined, record: unknown): CreatedRecord | undefined {
  if (route === undefined || typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const { id } = record as { id?: unknown };
  return typeof id === 'number' ? { path: route, id } : undefined;
}
