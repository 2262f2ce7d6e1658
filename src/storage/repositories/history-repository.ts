import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import { GENESIS_HASH, canonicalJson, chainHash } from '../../modules/history/history-chain.js';
import type { ChangeOrigin, HistoryEntry, HistoryRecord } from '../../modules/history/history-entry.js';
import type { HistoryRepository } from '../../modules/history/history-repository.js';
import type { Engine } from '../engine.js';
import type { PriceHistoryTable, Tables } from '../tables.js';
import { type ArrayColumn, insertFromArrays } from './array-insert.js';

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
    const perStatement = Math.floor(this.engine.maxBoundParameters / COLUMNS.length);
    for (let start = 0; start < rows.length; start += perStatement) {
      await this.db.insertInto('price_history').values(rows.slice(start, start + perStatement)).execute();
    }
  }
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
