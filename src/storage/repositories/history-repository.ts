import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import { GENESIS_HASH, canonicalJson, chainHash } from '../../modules/history/history-chain.js';
import type { ChangeOrigin, HistoryEntry, HistoryRecord } from '../../modules/history/history-entry.js';
import type {
  ChainCursor,
  ChainHead,
  HistoryCheckpoint,
  HistoryFilter,
  HistoryRepository,
  KeptCursor,
  KeptRecord,
  KeptResource,
} from '../../modules/history/history-repository.js';
import type { Page } from '../../modules/shared/page.js';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';
import type { PriceHistoryTable } from '../tables/history-tables.js';
import { type ArrayColumn, insertFromArrays, insertValues } from './array-insert.js';
import { toPriceListPrice } from './price-list-repository.js';
import { toTradePrice } from './trade-price-repository.js';

/** Each kept resource's live table and its table of deleted rows. */
const KEPT_TABLES = {
  trade_price: { live: 'trade_prices', deleted: 'trade_prices_deleted' },
  price_list_entry: { live: 'price_list_prices', deleted: 'price_list_prices_deleted' },
} as const;

/** The entry of the history's own migration: records older than it were created before it began. */
const HISTORY_MIGRATION = '015-price-history';

/** Every column an entry writes, with its type in PostgreSQL's arrays. */
const COLUMN_TYPES: Readonly<Record<keyof Omit<PriceHistoryTable, 'id'>, ArrayColumn['type']>> = {
  store_id: 'bigint',
  seq: 'bigint',
  at: 'text',
  resource: 'text',
  resource_id: 'bigint',
  change: 'text',
  before: 'text',
  after: 'text',
  customer_id: 'bigint',
  product_id: 'bigint',
  price_list_id: 'bigint',
  sku: 'text',
  actor_type: 'text',
  actor_id: 'bigint',
  actor_name: 'text',
  source: 'text',
  source_id: 'bigint',
  request_id: 'text',
  prev_hash: 'text',
  hash: 'text',
};
const COLUMNS = Object.keys(COLUMN_TYPES) as Array<keyof typeof COLUMN_TYPES>;

/** An entry's row, every column given. */
type HistoryRow = Required<Omit<Insertable<PriceHistoryTable>, 'id'>>;

export class KyselyHistoryRepository implements HistoryRepository {
  /**
   * Chain heads this transaction holds locked, as it last left them: once locked, no other
   * transaction moves a store's head until this one ends, so appends after the lock need not
   * read it again (a transaction's repositories are its own, made when it begins).
   */
  private readonly locked = new Map<number, { seq: number; hash: string }>();

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
  ) {}

  async lockChain(storeId: number): Promise<void> {
    if (!this.locked.has(storeId)) this.locked.set(storeId, await this.head(storeId));
  }

  async append(storeId: number, at: string, origin: ChangeOrigin, records: readonly HistoryRecord[]): Promise<void> {
    if (records.length === 0) return;
    let { seq, hash } = this.locked.get(storeId) ?? (await this.head(storeId));
    const rows: HistoryRow[] = [];
    for (const record of records) {
      seq += 1;
      const entry: Omit<HistoryEntry, 'id' | 'prevHash' | 'hash'> = {
        storeId,
        seq,
        at,
        resource: record.resource,
        resourceId: record.resourceId,
        change: record.change,
        before: record.before === null ? null : canonicalJson(record.before),
        after: record.after === null ? null : canonicalJson(record.after),
        customerId: record.customerId,
        productId: record.productId,
        priceListId: record.priceListId,
        sku: record.sku,
        actor: origin.actor,
        source: origin.source,
        sourceId: origin.sourceId,
        requestId: origin.requestId,
      };
      const prevHash = hash;
      hash = chainHash(prevHash, entry);
      rows.push(toRow(entry, prevHash, hash));
    }
    await this.insert(rows);
    await this.db.updateTable('price_history_heads').set({ seq, hash }).where('store_id', '=', storeId).execute();
    this.locked.set(storeId, { seq, hash });
  }

  async list(storeId: number, filter: HistoryFilter, page: Page): Promise<HistoryEntry[]> {
    const rows = await this.filtered(storeId, filter).selectAll().orderBy('seq', 'desc').limit(page.count).offset(page.offset).execute();
    return rows.map(toEntry);
  }

  async count(storeId: number, filter: HistoryFilter): Promise<number> {
    const row = await this.filtered(storeId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async chain(storeId: number, after: ChainCursor, limit: number): Promise<HistoryEntry[]> {
    // By seq along `price_history_seq`; by id after it, so a duplicate seq (the index dropped
    // and a row inserted behind the API's back) comes out too, and in a fixed order.
    const rows = await this.db
      .selectFrom('price_history')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('seq', '>=', after.seq)
      .where((eb) => eb.or([eb('seq', '>', after.seq), eb('id', '>', after.id)]))
      .orderBy('seq')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toEntry);
  }

  async readHead(storeId: number): Promise<ChainHead | undefined> {
    const row = await this.db.selectFrom('price_history_heads').select(['seq', 'hash']).where('store_id', '=', storeId).executeTakeFirst();
    return row && { seq: Number(row.seq), hash: row.hash };
  }

  async checkpoint(storeId: number): Promise<HistoryCheckpoint | undefined> {
    const row = await this.db.selectFrom('price_history_checkpoints').selectAll().where('store_id', '=', storeId).executeTakeFirst();
    return (
      row && {
        storeId: Number(row.store_id),
        seq: Number(row.seq),
        hash: row.hash,
        cutAt: row.cut_at,
        lastCutAt: row.last_cut_at,
        signature: row.signature,
      }
    );
  }

  async cut(checkpoint: HistoryCheckpoint): Promise<number> {
    const deleted = await this.db.deleteFrom('price_history').where('store_id', '=', checkpoint.storeId).where('seq', '<=', checkpoint.seq).executeTakeFirst();
    const row = {
      store_id: checkpoint.storeId,
      seq: checkpoint.seq,
      hash: checkpoint.hash,
      last_cut_at: checkpoint.lastCutAt,
      cut_at: checkpoint.cutAt,
      signature: checkpoint.signature,
    };
    await this.db
      .insertInto('price_history_checkpoints')
      .values(row)
      .onConflict((conflict) =>
        conflict.column('store_id').doUpdateSet({ seq: row.seq, hash: row.hash, last_cut_at: row.last_cut_at, cut_at: row.cut_at, signature: row.signature }),
      )
      .execute();
    return Number(deleted.numDeletedRows);
  }

  async keptRecords(
    storeId: number,
    resource: KeptResource,
    deleted: boolean,
    after: KeptCursor,
    limit: number,
  ): Promise<{ records: KeptRecord[]; next: KeptCursor }> {
    const tables = KEPT_TABLES[resource];
    const [first, second, end] = after.position;
    // Along (store, id, deleted_at) for deleted rows (migration 030); along the live table's
    // index by store for live ones: (store, id) for trade prices, (store, list, id) for entries.
    const rows = deleted
      ? await this.db
          .selectFrom(tables.deleted)
          .selectAll()
          .where('store_id', '=', storeId)
          .where((eb) => eb(eb.refTuple('id', 'deleted_at'), '>', eb.tuple(first, end)))
          .orderBy('id')
          .orderBy('deleted_at')
          .limit(limit)
          .execute()
      : resource === 'trade_price'
        ? await this.db.selectFrom(tables.live).selectAll().where('store_id', '=', storeId).where('id', '>', first).orderBy('id').limit(limit).execute()
        : await this.db
            .selectFrom('price_list_prices')
            .selectAll()
            .where('store_id', '=', storeId)
            .where((eb) => eb(eb.refTuple('price_list_id', 'id'), '>', eb.tuple(first, second)))
            .orderBy('price_list_id')
            .orderBy('id')
            .limit(limit)
            .execute();
    const records = rows.map((row) => keptRecordOf(resource, row));
    const last = records.at(-1);
    if (last === undefined) return { records, next: after };
    const { id } = last.record;
    if (last.deletedAt !== null) return { records, next: { position: [id, 0, last.deletedAt] } };
    return { records, next: { position: 'priceListId' in last.record ? [last.record.priceListId, id, ''] : [id, 0, ''] } };
  }

  async keptRecordsOf(storeId: number, resource: KeptResource, ids: readonly number[]): Promise<KeptRecord[]> {
    if (ids.length === 0) return [];
    const tables = KEPT_TABLES[resource];
    const unique = [...new Set(ids)];
    const live = await this.db.selectFrom(tables.live).selectAll().where('store_id', '=', storeId).where('id', 'in', unique).execute();
    const deleted = await this.db.selectFrom(tables.deleted).selectAll().where('store_id', '=', storeId).where('id', 'in', unique).execute();
    return [...live, ...deleted].map((row) => keptRecordOf(resource, row));
  }

  async entriesOf(storeId: number, resource: KeptResource, ids: readonly number[]): Promise<HistoryEntry[]> {
    if (ids.length === 0) return [];
    // Along `price_history_resource` (store, resource, resource id, at).
    const rows = await this.db
      .selectFrom('price_history')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('resource', '=', resource)
      .where('resource_id', 'in', [...new Set(ids)])
      .orderBy('seq')
      .execute();
    return rows.map(toEntry);
  }

  async startedAt(): Promise<string | null> {
    const row = await sql<{ timestamp: string }>`select timestamp from kysely_migration where name = ${HISTORY_MIGRATION}`.execute(this.db);
    const found = row.rows[0]?.timestamp;
    return found === undefined ? null : new Date(found).toISOString();
  }

  /**
   * The store's entries matching the filter. Each filter has its index (migration 015:
   * customer, product, list, SKU, actor, each with seq; 018: moment), so a page of one
   * customer's history reads that customer's entries, never the store's.
   */
  private filtered(storeId: number, filter: HistoryFilter) {
    let query = this.db.selectFrom('price_history').where('store_id', '=', storeId);
    if (filter.customerId !== undefined) query = query.where('customer_id', '=', filter.customerId);
    if (filter.productId !== undefined) query = query.where('product_id', '=', filter.productId);
    if (filter.priceListId !== undefined) query = query.where('price_list_id', '=', filter.priceListId);
    if (filter.sku !== undefined) query = query.where('sku', '=', filter.sku);
    if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
    if (filter.actorType !== undefined) query = query.where('actor_type', '=', filter.actorType);
    if (filter.resource !== undefined) query = query.where('resource', '=', filter.resource);
    if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
    if (filter.until !== undefined) query = query.where('at', '<', filter.until);
    return query;
  }

  /**
   * The store's chain head, made on first use, in one statement that also locks it to the end
   * of the transaction: an upsert whose update changes nothing takes the row's lock where the
   * engine locks rows (SQLite's write transaction holds the whole database already).
   */
  private async head(storeId: number): Promise<{ seq: number; hash: string }> {
    const head = await this.db
      .insertInto('price_history_heads')
      .values({ store_id: storeId, seq: 0, hash: GENESIS_HASH })
      .onConflict((conflict) => conflict.column('store_id').doUpdateSet((eb) => ({ seq: eb.ref('price_history_heads.seq') })))
      .returning(['seq', 'hash'])
      .executeTakeFirstOrThrow();
    return { seq: Number(head.seq), hash: head.hash };
  }

  private async insert(rows: readonly HistoryRow[]): Promise<void> {
    if (this.engine.insertsRowsFromArrays) {
      const columns = Object.fromEntries(COLUMNS.map((name) => [name, { type: COLUMN_TYPES[name], values: rows.map((row) => row[name] ?? null) }]));
      await sql`${insertFromArrays('price_history', columns)}`.execute(this.db);
      return;
    }
    for (const statement of insertValues(
      'price_history',
      COLUMNS,
      rows.map((row) => COLUMNS.map((name) => row[name] ?? null)),
    ))
      await this.db.executeQuery(statement);
  }
}

/** A live or deleted row of a kept resource, as the API shows the record. */
function keptRecordOf(resource: KeptResource, row: Record<string, unknown>): KeptRecord {
  const deletedAt = typeof row.deleted_at === 'string' ? row.deleted_at : null;
  // The rows of both tables of a resource share the live table's columns (the deleted one adds `deleted_at`).
  const record =
    resource === 'trade_price'
      ? toTradePrice(row as unknown as Parameters<typeof toTradePrice>[0])
      : toPriceListPrice(row as unknown as Parameters<typeof toPriceListPrice>[0]);
  return { resource, record, deletedAt };
}

function toEntry(row: Selectable<PriceHistoryTable>): HistoryEntry {
  return {
    id: Number(row.id),
    storeId: Number(row.store_id),
    seq: Number(row.seq),
    at: row.at,
    resource: row.resource as HistoryEntry['resource'],
    resourceId: Number(row.resource_id),
    change: row.change as HistoryEntry['change'],
    before: row.before,
    after: row.after,
    customerId: nullableNumber(row.customer_id),
    productId: nullableNumber(row.product_id),
    priceListId: nullableNumber(row.price_list_id),
    sku: row.sku,
    actor: { type: row.actor_type as HistoryEntry['actor']['type'], id: Number(row.actor_id), name: row.actor_name },
    source: row.source as HistoryEntry['source'],
    sourceId: nullableNumber(row.source_id),
    requestId: row.request_id,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/** PostgreSQL answers bigint columns as strings. */
function nullableNumber(value: number | null): number | null {
  return value === null ? null : Number(value);
}

function toRow(entry: Omit<HistoryEntry, 'id' | 'prevHash' | 'hash'>, prevHash: string, hash: string): HistoryRow {
  return {
    store_id: entry.storeId,
    seq: entry.seq,
    at: entry.at,
    resource: entry.resource,
    resource_id: entry.resourceId,
    change: entry.change,
    before: entry.before,
    after: entry.after,
    customer_id: entry.customerId,
    product_id: entry.productId,
    price_list_id: entry.priceListId,
    sku: entry.sku,
    actor_type: entry.actor.type,
    actor_id: entry.actor.id,
    actor_name: entry.actor.name,
    source: entry.source,
    source_id: entry.sourceId,
    request_id: entry.requestId,
    prev_hash: prevHash,
    hash,
  };
}
