import type { Caller, CreateOptions } from './api-caller.js';
import { type IterateQuery, offsetPages } from './pages.js';
import type {
  CountResult,
  PriceList,
  PriceListCountQuery,
  PriceListEntryOverlap,
  PriceListGetQuery,
  PriceListInput,
  PriceListListQuery,
  PriceListOverlapQuery,
  PriceListPrice,
  PriceListPriceCountQuery,
  PriceListPriceInput,
  PriceListPriceListQuery,
  PriceListUpdate,
  ReplacePriceListPricesRequest,
  ReplacePriceListPricesResult,
} from './types.js';

/** `/v1/price-lists/{id}/prices`: the entries of a fixed list; every method takes the list's id first. */
export class PriceListPricesResource {
  constructor(private readonly api: Caller) {}

  list(priceListId: number, query: PriceListPriceListQuery = {}): Promise<PriceListPrice[]> {
    return this.api.call('priceLists.prices.list', { params: { id: priceListId }, query });
  }
  iterate(priceListId: number, query: IterateQuery<PriceListPriceListQuery> = {}): AsyncGenerator<PriceListPrice, void, undefined> {
    return offsetPages((page) => this.list(priceListId, { ...query, ...page }));
  }
  async count(priceListId: number, query: PriceListPriceCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('priceLists.prices.count', { params: { id: priceListId }, query })).count;
  }
  get(priceListId: number, priceId: number, query: PriceListGetQuery = {}): Promise<PriceListPrice> {
    return this.api.call('priceLists.prices.get', { params: { id: priceListId, priceId }, query });
  }
  /** 1–1000 entries, all or nothing. */
  bulkCreate(priceListId: number, entries: readonly PriceListPriceInput[], options: CreateOptions = {}): Promise<PriceListPrice[]> {
    return this.api.call('priceLists.prices.bulkCreate', { params: { id: priceListId }, body: entries, ...options });
  }
  async delete(priceListId: number, priceId: number): Promise<void> {
    await this.api.call('priceLists.prices.delete', { params: { id: priceListId, priceId } });
  }
  /** Makes the list's entries (`scope: 'list'`), or those of the SKUs named (`'skus'`), exactly `prices`; `dryRun` answers without changing anything. */
  replace(priceListId: number, request: ReplacePriceListPricesRequest, options: CreateOptions = {}): Promise<ReplacePriceListPricesResult> {
    return this.api.call('priceLists.prices.replace', { params: { id: priceListId }, body: request, ...options });
  }
  /**
   * A replace from a CSV file (up to 2 MiB, 5000 rows; text, or its bytes), as the list's download writes it: `scope: 'skus'`
   * (the default) replaces the entries of the SKUs in the file, `'list'` every entry; `dryRun` answers without changing anything.
   */
  import(
    priceListId: number,
    csv: string | Uint8Array,
    options: CreateOptions & { scope?: 'list' | 'skus'; dryRun?: boolean } = {},
  ): Promise<ReplacePriceListPricesResult> {
    const { scope = 'skus', dryRun = false, idempotencyKey } = options;
    return this.api.call('priceLists.prices.import', {
      params: { id: priceListId },
      csv,
      query: { scope, dryRun },
      ...(idempotencyKey !== undefined && { idempotencyKey }),
    });
  }
}

/** `/v1/price-lists` (docs/pricing.md); `prices` are a fixed list's entries. */
export class PriceListsResource {
  readonly prices: PriceListPricesResource;

  constructor(private readonly api: Caller) {
    this.prices = new PriceListPricesResource(api);
  }

  list(query: PriceListListQuery = {}): Promise<PriceList[]> {
    return this.api.call('priceLists.list', { query });
  }
  iterate(query: IterateQuery<PriceListListQuery> = {}): AsyncGenerator<PriceList, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: PriceListCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('priceLists.count', { query })).count;
  }
  get(id: number, query: PriceListGetQuery = {}): Promise<PriceList> {
    return this.api.call('priceLists.get', { params: { id }, query });
  }
  create(priceList: PriceListInput, options: CreateOptions = {}): Promise<PriceList> {
    return this.api.call('priceLists.create', { body: priceList, ...options });
  }
  update(id: number, changes: PriceListUpdate): Promise<PriceList> {
    return this.api.call('priceLists.update', { params: { id }, body: changes });
  }
  /** Entries of the list the tie rule decides between: same SKU, product and break, windows that meet (docs/pricing.md, "Overlaps"). */
  overlaps(id: number, query: PriceListOverlapQuery = {}): Promise<PriceListEntryOverlap[]> {
    return this.api.call('priceLists.overlaps', { params: { id }, query });
  }
  iterateOverlaps(id: number, query: IterateQuery<PriceListOverlapQuery> = {}): AsyncGenerator<PriceListEntryOverlap, void, undefined> {
    return offsetPages((page) => this.overlaps(id, { ...query, ...page }));
  }
  /** Also removes its entries and its id from every customer's `priceListIds`. */
  async delete(id: number): Promise<void> {
    await this.api.call('priceLists.delete', { params: { id } });
  }
}
