import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../modules/errors.js';
import type { IdempotencyService } from '../modules/idempotency/idempotency-service.js';
import { principalOf } from './app-types.js';
import type { CreatedRecord } from '../modules/idempotency/idempotency-repository.js';

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
     */
    sendIdempotent(statusCode: number, work: () => Promise<unknown>): Promise<FastifyReply>;
  }
}

/** 1–255 printable ASCII characters. */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

export function registerIdempotentCreate(app: FastifyInstance, idempotency: IdempotencyService): void {
  app.decorateReply('sendCreated', function sendCreated(this: FastifyReply, create: (prepared: unknown) => Promise<unknown>, prepare?: () => Promise<unknown>) {
    return sendUnderKey(this, idempotency, 201, create, prepare);
  });
  app.decorateReply('sendIdempotent', function sendIdempotent(this: FastifyReply, statusCode: number, work: () => Promise<unknown>) {
    return sendUnderKey(this, idempotency, statusCode, work);
  });
}

async function sendUnderKey(
  reply: FastifyReply,
  idempotency: IdempotencyService,
  statusCode: number,
  create: (prepared: unknown) => Promise<unknown>,
  prepare?: () => Promise<unknown>,
): Promise<FastifyReply> {
  const { request } = reply;
  const key = request.headers['idempotency-key'];
  if (key === undefined) return reply.code(statusCode).send(await create(await prepare?.()));
  // Node joins repeated headers with ", ": count the raw ones, or two keys would pass as one.
  if (typeof key !== 'string' || !KEY_FORMAT.test(key) || headerCount(request.raw.rawHeaders, 'idempotency-key') > 1) {
    throw new AppError('invalid_query', "Invalid header 'Idempotency-Key': it must be given once, as 1 to 255 printable ASCII characters");
  }
  // The query counts where there is one (an import's mode): the same body another way is another request.
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(request.rawBody ?? Buffer.alloc(0))
    .digest('hex');
  let prepared: unknown;
  const { storeId, keyId } = principalOf(request);
  const outcome = await idempotency.run(
    { storeId, keyId },
    key,
    fingerprint,
    async () => {
      const record = await create(prepared);
      return { statusCode, body: JSON.stringify(record), created: createdRecord(request.routeOptions.url, record) };
    },
    prepare &&
      (async () => {
        prepared = await prepare();
      }),
  );
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(outcome.statusCode).type(JSON_TYPE).send(outcome.body);
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
