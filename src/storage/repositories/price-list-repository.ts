import { type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { PriceList, PriceListKind, PriceListPolicy, PriceListPrice } from '../../contract/price-lists.js';
import { fromPriceUnits, toPriceUnits } from '../../modules/shared/money.js';
import type { Page } from '../../modules/shared/page.js';
import type {
  KeyOrderFilter,
  NewPriceList,
  PricedEntry,
  PriceListFilter,
  PriceListPriceFilter,
  PriceListPriceOwner,
  PriceListRepository,
} from '../../modules/price-lists/price-list-repository.js';
import type { RecordsOfSku } from '../../modules/trade-prices/trade-price-repository.js';
import type { Rounding, RoundingMode } from '../../modules/currency/rounding.js';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';
import type { PriceListPricesTable, PriceListsTable } from '../tables/price-tables.js';
import { IDS_PER_DELETE, keepDeletedListEntries } from './deleted-rows.js';
import { insertPricedSkuRows, pricedSkuOfRow } from './priced-sku-rows.js';
import { columnsOfRule, ruleOfColumns } from '../../modules/quantity-rules/quantity-rule.js';

export class KyselyPriceListRepository implements PriceListRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
  ) {}

  async list(storeId: number, filter: PriceListFilter, page: Page): Promise<PriceList[]> {
    const rows = await this.filteredLists(storeId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return rows.map(toPriceList);
  }

  async count(storeId: number, filter: PriceListFilter): Promise<number> {
    const row = await this.filteredLists(storeId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<PriceList | undefined> {
    const row = await this.db.selectFrom('price_lists').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row && toPriceList(row);
  }

  async existingIds(storeId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('price_lists')
      .select('id')
      .where('store_id', '=', storeId)
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((row) => Number(row.id)));
  }

  async insert(storeId: number, list: NewPriceList, createdAt: string): Promise<PriceList> {
    const row = await this.db
      .insertInto('price_lists')
      .values({
        store_id: storeId,
        name: list.name,
        kind: list.kind,
        percentage: list.percentage,
        policy: list.policy,
        ...roundingColumns(list.rounding),
        created_at: createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toPriceList(row);
  }

  async update(storeId: number, id: number, patch: Partial<Pick<NewPriceList, 'name' | 'percentage' | 'policy' | 'rounding'>>): Promise<PriceList | undefined> {
    const columns = {
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.percentage !== undefined && { percentage: patch.percentage }),
      ...(patch.policy !== undefined && { policy: patch.policy }),
      ...(patch.rounding !== undefined && roundingColumns(patch.rounding)),
    };
    const row =
      Object.keys(columns).length === 0
        ? await this.db.selectFrom('price_lists').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst()
        : await this.db.updateTable('price_lists').set(columns).where('store_id', '=', storeId).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toPriceList(row);
  }

  async delete(storeId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('price_lists').where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async insertPrices(storeId: number, priceListId: number, items: readonly PricedEntry[], createdAt: string): Promise<PriceListPrice[]> {
    const ids = await insertPricedSkuRows(
      this.db,
      this.engine,
      'price_list_prices',
      storeId,
      items.map((item) => ({ ...item, owner: priceListId })),
      createdAt,
    );
    return items.map((item, index) => ({ id: ids[index]!, priceListId, ...item, createdAt }));
  }

  async listPrices(storeId: number, priceListId: number, filter: PriceListPriceFilter, page: Page): Promise<PriceListPrice[]> {
    const rows = await this.filteredPrices(storeId, priceListId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return rows.map(toPriceListPrice);
  }

  async countPrices(storeId: number, priceListId: number, filter: PriceListPriceFilter): Promise<number> {
    const row = await this.filteredPrices(storeId, priceListId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async pricesInKeyOrder(
    storeId: number,
    priceListId: number,
    filter: KeyOrderFilter,
    after: PriceListPrice | undefined,
    limit: number,
  ): Promise<PriceListPrice[]> {
    // Along the list's pricing index as each engine holds it (PostgreSQL's keeps a key's ids
    // newest first), in two ranges of it: the rest of `after`'s key, then the keys after it. A
    // single row-value range would make PostgreSQL sort the rest of a key at every read.
    const newestFirst = this.engine.indexIncludesColumns;
    const keyed = () => {
      let query = this.db.selectFrom('price_list_prices').selectAll().where('store_id', '=', storeId).where('price_list_id', '=', priceListId);
      if (filter.productId !== undefined) query = query.where('product_id', '=', filter.productId);
      if (filter.sku !== undefined) query = query.where('sku', '=', filter.sku);
      if (filter.skus !== undefined) query = query.where('sku', 'in', [...filter.skus]);
      return query;
    };
    if (filter.skus !== undefined && filter.skus.length === 0) return [];
    const rows: Array<Selectable<PriceListPricesTable>> = [];
    if (after !== undefined) {
      const { sku, productId, minQuantity, id } = after;
      rows.push(
        ...(await keyed()
          .where('sku', '=', sku)
          .where('product_id', '=', productId)
          .where('min_quantity', '=', minQuantity)
          .where('id', newestFirst ? '<' : '>', id)
          .orderBy('id', newestFirst ? 'desc' : 'asc')
          .limit(limit)
          .execute()),
      );
    }
    if (rows.length < limit) {
      let next = keyed();
      if (after !== undefined) {
        const { sku, productId, minQuantity } = after;
        next = next.where((eb) => eb(eb.refTuple('sku', 'product_id', 'min_quantity'), '>', eb.tuple(sku, productId, minQuantity)));
      }
      rows.push(
        ...(await next
          .orderBy('sku')
          .orderBy('product_id')
          .orderBy('min_quantity')
          .orderBy('id', newestFirst ? 'desc' : 'asc')
          .limit(limit - rows.length)
          .execute()),
      );
    }
    return rows.map(toPriceListPrice);
  }

  async findPrice(storeId: number, priceListId: number, id: number): Promise<PriceListPrice | undefined> {
    const row = await this.db
      .selectFrom('price_list_prices')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('price_list_id', '=', priceListId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toPriceListPrice(row);
  }

  async lastDeletedPrices(storeId: number, ids: readonly number[]): Promise<PriceListPrice[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('price_list_prices_deleted')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('id', 'in', [...new Set(ids)])
      .orderBy('deleted_at')
      .execute();
    return [...new Map(rows.map((row) => [Number(row.id), toPriceListPrice(row)])).values()];
  }

  async restorePrices(storeId: number, entries: readonly PriceListPrice[], createdAt: string): Promise<PriceListPrice[]> {
    if (entries.length === 0) return [];
    await this.db
      .insertInto('price_list_prices')
      .values(
        entries.map((entry) => ({
          id: entry.id,
          store_id: storeId,
          price_list_id: entry.priceListId,
          product_id: entry.productId,
          sku: entry.sku,
          price: toPriceUnits(entry.price),
          min_quantity: entry.minQuantity,
          valid_from: entry.validFrom,
          valid_until: entry.validUntil,
          ...columnsOfRule(entry.quantityRule),
          created_at: createdAt,
        })),
      )
      .execute();
    return entries.map((entry) => ({ ...entry, createdAt }));
  }

  async deletePrices(storeId: number, priceListId: number, ids: readonly number[], deletedAt: string): Promise<void> {
    for (let start = 0; start < ids.length; start += IDS_PER_DELETE) {
      const rows = await this.db
        .deleteFrom('price_list_prices')
        .where('store_id', '=', storeId)
        .where('price_list_id', '=', priceListId)
        .where('id', 'in', ids.slice(start, start + IDS_PER_DELETE))
        .returningAll()
        .execute();
      await keepDeletedListEntries(this.db, this.engine, rows, deletedAt);
    }
  }

  async deletePrice(storeId: number, priceListId: number, id: number, deletedAt: string): Promise<PriceListPrice | undefined> {
    const row = await this.db
      .deleteFrom('price_list_prices')
      .where('store_id', '=', storeId)
      .where('price_list_id', '=', priceListId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (row !== undefined) await keepDeletedListEntries(this.db, this.engine, [row], deletedAt);
    return row && toPriceListPrice(row);
  }

  async deletePriceBatchOf(storeId: number, owner: PriceListPriceOwner, afterId: number, limit: number, deletedAt: string): Promise<PriceListPrice[]> {
    // Ids first along the list's or product's index, then a delete by primary key (as for trade prices).
    let batch = this.db.selectFrom('price_list_prices').select('id').where('store_id', '=', storeId).where('id', '>', afterId);
    if ('priceListId' in owner) batch = batch.where('price_list_id', '=', owner.priceListId);
    else {
      batch = batch.where('product_id', '=', owner.productId);
      if (owner.sku !== undefined) batch = batch.where('sku', '=', owner.sku);
    }
    const ids = (await batch.orderBy('id').limit(limit).execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    const rows = await this.db.deleteFrom('price_list_prices').where('id', 'in', ids).returningAll().execute();
    await keepDeletedListEntries(this.db, this.engine, rows, deletedAt);
    return rows.map(toPriceListPrice).sort((a, b) => a.id - b.id);
  }

  async entriesOfSku(storeId: number, productId: number, sku: string, shown: number): Promise<RecordsOfSku<{ id: number; priceListId: number }>> {
    // Along the product's index: a product's entries are few next to a store's.
    const ofSku = this.db.selectFrom('price_list_prices').where('product_id', '=', productId).where('store_id', '=', storeId).where('sku', '=', sku);
    const rows = await ofSku.select(['id', 'price_list_id']).orderBy('id').limit(shown).execute();
    const lowest = rows.map((row) => ({ id: Number(row.id), priceListId: Number(row.price_list_id) }));
    // Fewer than `shown` are all there is: counting costs a query only when there are more.
    if (lowest.length < shown) return { count: lowest.length, lowest };
    const { count } = await ofSku.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return { count: Number(count), lowest };
  }

  private filteredLists(storeId: number, filter: PriceListFilter): SelectQueryBuilder<Tables, 'price_lists', object> {
    let query = this.db.selectFrom('price_lists').where('store_id', '=', storeId);
    if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
    return query;
  }

  private filteredPrices(storeId: number, priceListId: number, filter: PriceListPriceFilter): SelectQueryBuilder<Tables, 'price_list_prices', object> {
    let query = this.db.selectFrom('price_list_prices').where('store_id', '=', storeId).where('price_list_id', '=', priceListId);
    if (filter.productId !== undefined) query = query.where('product_id', '=', filter.productId);
    if (filter.sku !== undefined) query = query.where('sku', '=', filter.sku);
    const at = filter.validAt;
    if (at !== undefined) {
      query = query
        .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', at)]))
        .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', at)]));
    }
    return query;
  }
}

/** A list's own rounding as its columns: both null when it takes the store's. */
function roundingColumns(rounding: Rounding | null): { rounding_increment: number | null; rounding_mode: string | null } {
  return rounding === null ? { rounding_increment: null, rounding_mode: null } : { rounding_increment: rounding.incrementUnits, rounding_mode: rounding.mode };
}

function toPriceList(row: Selectable<PriceListsTable>): PriceList {
  return {
    id: Number(row.id),
    name: row.name,
    kind: row.kind as PriceListKind,
    percentage: row.percentage === null ? null : fromPriceUnits(Number(row.percentage)),
    policy: row.policy as PriceListPolicy,
    rounding:
      row.rounding_increment === null || row.rounding_mode === null
        ? null
        : { increment: fromPriceUnits(Number(row.rounding_increment)), mode: row.rounding_mode as RoundingMode },
    createdAt: row.created_at,
  };
}

export function toPriceListPrice(row: Omit<Selectable<PriceListPricesTable>, 'id'> & { id: number }): PriceListPrice {
  return {
    id: Number(row.id),
    priceListId: Number(row.price_list_id),
    ...pricedSkuOfRow(row),
    quantityRule: ruleOfColumns(row),
    createdAt: row.created_at,
  };
}
