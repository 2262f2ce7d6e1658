import type { Caller, CreateOptions } from './api-caller.js';
import { type IterateQuery, offsetPages, PAGE_SIZE } from './pages.js';
import { PricebookError } from './pricebook-error.js';
import type {
  CountResult,
  EffectivePrice,
  EffectivePriceQuery,
  PriceCandidate,
  ReplaceTradePricesRequest,
  ReplaceTradePricesResult,
  TradePrice,
  TradePriceCountQuery,
  TradePriceGetQuery,
  TradePriceInput,
  TradePriceListQuery,
  TradePriceWithEmbeds,
} from './types.js';

/** Items in one bulk create: the API's limit. */
export const MAX_CHUNK_SIZE = 1000;

export interface BulkCreateOptions {
  /** Items per request, 1–1000; default 1000. */
  chunkSize?: number;
  /**
   * Chunk `i` is sent with `Idempotency-Key: ${idempotencyKeyPrefix}-${i}`. Run again with the same
   * prefix and the same items (same order, same fields) within 24 hours, every chunk that was
   * created replays its first answer and creates nothing: a rerun after a crash creates only
   * what the first run did not. Default: a random prefix (a retry inside this call only).
   */
  idempotencyKeyPrefix?: string;
  /** Called after each chunk. */
  onChunk?: (progress: { chunkIndex: number; chunks: number; replayed: boolean }) => void;
}

export interface BulkCreateResult {
  /** The records of every chunk, in the order of the items (a replayed chunk's as first created). */
  records: TradePrice[];
  chunks: number;
  /** Chunks whose key had been used: created by an earlier run, nothing created now. */
  replayedChunks: number;
}

/** `/v1/trade-customer-product-prices`: list, count, get, delete, bulk create, replace, effective (and its candidates). */
export class TradePricesResource {
  constructor(private readonly api: Caller) {}

  list(query: TradePriceListQuery = {}): Promise<TradePriceWithEmbeds[]> {
    return this.api.call('tradePrices.list', { query });
  }
  iterate(query: IterateQuery<TradePriceListQuery> = {}): AsyncGenerator<TradePriceWithEmbeds, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: TradePriceCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('tradePrices.count', { query })).count;
  }
  get(id: number, query: TradePriceGetQuery = {}): Promise<TradePriceWithEmbeds> {
    return this.api.call('tradePrices.get', { params: { id }, query });
  }
  async delete(id: number): Promise<void> {
    await this.api.call('tradePrices.delete', { params: { id } });
  }
  /**
   * Which price the customer pays for a SKU, and why (docs/pricing.md): with one page of the
   * candidates (`candidatesCount`, 1–100, default 100, from `candidatesOffset`) and
   * `candidateCount`, how many there are.
   */
  effective(query: EffectivePriceQuery): Promise<EffectivePrice> {
    return this.api.call('tradePrices.effective', { query });
  }
  /**
   * Every candidate of that answer, in the rule's order, 100 a request (`candidatesOffset` grows
   * until `candidateCount` is reached). Each request prices again at the same `at`: give one, or
   * records created or ending meanwhile may change the pages.
   */
  async *iterateCandidates(query: Omit<EffectivePriceQuery, 'candidatesOffset' | 'candidatesCount'>): AsyncGenerator<PriceCandidate, void, undefined> {
    for (let offset = 0; ;) {
      const page = await this.effective({ ...query, candidatesOffset: offset, candidatesCount: PAGE_SIZE });
      yield* page.candidates;
      offset += page.candidates.length;
      if (page.candidates.length === 0 || offset >= page.candidateCount) return;
    }
  }
  /**
   * One bulk create request as the API takes it: 1–1000 items, all or nothing, answered with the
   * records in the items' order; a 422's `errors[].index` are positions in `items`. `bulkCreate`
   * sends any number, in chunks.
   */
  createMany(items: readonly TradePriceInput[], options: CreateOptions = {}): Promise<TradePrice[]> {
    return this.api.call('tradePrices.createMany', { body: items, ...options });
  }
  /** One replace request as the API takes it; `Pricebook.replaceCustomerPrices` is the short form. */
  replace(request: ReplaceTradePricesRequest, options: CreateOptions = {}): Promise<ReplaceTradePricesResult> {
    return this.api.call('tradePrices.replace', { body: request, ...options });
  }

  /**
   * Creates any number of prices, `chunkSize` per request, one after another. Each chunk is all
   * or nothing; a chunk refused (422) throws a PricebookError whose `errors[].index` are
   * positions in `items`, and the chunks before it stay created (run again with the same prefix
   * once the items are fixed: those replay).
   */
  async bulkCreate(items: readonly TradePriceInput[], options: BulkCreateOptions = {}): Promise<BulkCreateResult> {
    const chunkSize = options.chunkSize ?? MAX_CHUNK_SIZE;
    if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_CHUNK_SIZE)
      throw new RangeError(`chunkSize must be a whole number from 1 to ${MAX_CHUNK_SIZE}, got ${chunkSize}`);
    const prefix = options.idempotencyKeyPrefix ?? `bulk-${crypto.randomUUID()}`;
    if (!/^[\x21-\x7e]{1,240}$/.test(prefix)) throw new RangeError('idempotencyKeyPrefix must be 1–240 printable ASCII characters without spaces');
    const chunks = Math.ceil(items.length / chunkSize);
    const result: BulkCreateResult = { records: [], chunks, replayedChunks: 0 };
    for (let chunkIndex = 0; chunkIndex < chunks; chunkIndex++) {
      const start = chunkIndex * chunkSize;
      const chunk = items.slice(start, start + chunkSize);
      let answer;
      try {
        answer = await this.api.request<TradePrice[]>('tradePrices.createMany', { body: chunk, idempotencyKey: `${prefix}-${chunkIndex}` });
      } catch (error) {
        throw error instanceof PricebookError ? inItems(error, chunkIndex, start, start + chunk.length - 1) : error;
      }
      const replayed = answer.headers['idempotent-replayed'] === 'true';
      if (replayed) result.replayedChunks += 1;
      result.records.push(...answer.body);
      options.onChunk?.({ chunkIndex, chunks, replayed });
    }
    return result;
  }
}

/** A chunk's error with its problems' indexes as positions in the whole `items`. */
function inItems(error: PricebookError, chunkIndex: number, first: number, last: number): PricebookError {
  const errors = error.errors?.map((problem) => (problem.index === undefined ? problem : { ...problem, index: problem.index + first }));
  const message = `chunk ${chunkIndex} (items ${first}–${last}): ${error.message}`;
  return new PricebookError(error.status, { code: error.code, message, ...(errors !== undefined && { errors }) }, error.retryAfterSeconds);
}
