import type { Generated, Kysely, Selectable, Updateable } from 'kysely';
import type { Page } from '../../modules/shared/page.js';
import type { StoreRecords } from '../../modules/shared/store-records.js';
import type { Tables } from '../tables.js';

/** The columns every table of a store's records has. */
interface StoreRecordColumns {
  id: Generated<number>;
  store_id: number;
  created_at: string;
}

/** The tables of a store's records: those with the columns above. */
export type StoreRecordTable = { [Table in keyof Tables]: Tables[Table] extends StoreRecordColumns ? Table : never }[keyof Tables];

/** How one kind of record is stored: its table, how a row reads, how fields are written, how it is filtered. */
export interface RecordsTable<Table extends StoreRecordTable, Record, Fields, Filter> {
  readonly table: Table;
  toRecord(row: Selectable<Tables[Table]>): Record;
  /** The columns of the fields given (an update gives some of them). */
  toColumns(fields: Partial<Fields>): Updateable<Tables[Table]>;
  /** Each filter's field and the column it must equal when given. */
  readonly filters: { readonly [Field in keyof NoInfer<Filter>]-?: keyof Tables[Table] & string };
}

/**
 * A store's records of one table: every read and write bound to the store's id, lists ordered
 * by id. A plain resource's repository is one of these, built in the unit of work from its
 * `RecordsTable` (declared beside its table's row type); a repository with reads of its own
 * extends it (categories).
 */
export class KyselyStoreRecords<Table extends StoreRecordTable, Record, Fields, Filter> implements StoreRecords<Record, Fields, Filter> {
  /**
   * The same database seen through the columns every store-records table shares: Kysely types a
   * query by its table's name, and this class serves any of them, so its queries name the table
   * `records` to the type checker (`table`, the real name, to the database) and read rows back
   * through `toRecord`, which knows the table's own columns.
   */
  private readonly records: Kysely<{ records: StoreRecordColumns }>;
  private readonly table: 'records';

  constructor(
    protected readonly db: Kysely<Tables>,
    private readonly stored: RecordsTable<Table, Record, Fields, Filter>,
  ) {
    this.records = db as unknown as Kysely<{ records: StoreRecordColumns }>;
    this.table = stored.table as string as 'records';
  }

  async list(storeId: number, filter: Filter, page: Page): Promise<Record[]> {
    const rows = await this.filtered(storeId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return rows.map((row) => this.read(row));
  }

  async count(storeId: number, filter: Filter): Promise<number> {
    const row = await this.filtered(storeId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<Record | undefined> {
    const row = await this.records.selectFrom(this.table).selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row && this.read(row);
  }

  async insert(storeId: number, fields: Fields, createdAt: string): Promise<Record> {
    const row = await this.records
      .insertInto(this.table)
      .values({ ...this.stored.toColumns(fields), store_id: storeId, created_at: createdAt })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.read(row);
  }

  async update(storeId: number, id: number, patch: Partial<Fields>): Promise<Record | undefined> {
    const columns = this.stored.toColumns(patch);
    // Nothing to change: the record as it is (an empty SET is not SQL).
    if (Object.keys(columns).length === 0) return this.find(storeId, id);
    const row = await this.records.updateTable(this.table).set(columns).where('store_id', '=', storeId).where('id', '=', id).returningAll().executeTakeFirst();
    return row && this.read(row);
  }

  async delete(storeId: number, id: number): Promise<boolean> {
    const result = await this.records.deleteFrom(this.table).where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  private filtered(storeId: number, filter: Filter) {
    let query = this.records.selectFrom(this.table).where('store_id', '=', storeId);
    for (const field of Object.keys(this.stored.filters) as (keyof Filter)[]) {
      const value = filter[field];
      if (value !== undefined) query = query.where(this.stored.filters[field] as 'id', '=', value as number);
    }
    return query;
  }

  /** The row as its table types it: selected from that table, whatever this class's view of its columns. */
  private read(row: Selectable<StoreRecordColumns>): Record {
    return this.stored.toRecord(row as Selectable<Tables[Table]>);
  }
}
