import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { CustomerGroup } from '../../contract/customer-groups.js';
import type { PriceListPolicy } from '../../contract/price-lists.js';
import type { CustomerGroupFilter, CustomerGroupRepository, NewCustomerGroup } from '../../modules/customer-groups/customer-group-repository.js';
import type { Page } from '../../modules/shared/page.js';
import type { Tables } from '../tables.js';
import type { CustomerGroupsTable } from '../tables/customer-tables.js';
import { idsByOwner } from './ordered-ids.js';

export class KyselyCustomerGroupRepository implements CustomerGroupRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(storeId: number, filter: CustomerGroupFilter, page: Page): Promise<CustomerGroup[]> {
    const rows = await this.filtered(storeId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return this.withPriceLists(storeId, rows);
  }

  async count(storeId: number, filter: CustomerGroupFilter): Promise<number> {
    const row = await this.filtered(storeId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<CustomerGroup | undefined> {
    const [group] = await this.findMany(storeId, [id]);
    return group;
  }

  async findMany(storeId: number, ids: readonly number[]): Promise<CustomerGroup[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('customer_groups')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();
    return this.withPriceLists(storeId, rows);
  }

  async existingIds(storeId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('customer_groups')
      .select('id')
      .where('store_id', '=', storeId)
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((row) => Number(row.id)));
  }

  async insert(storeId: number, group: NewCustomerGroup, createdAt: string): Promise<CustomerGroup> {
    const row = await this.db
      .insertInto('customer_groups')
      .values({ store_id: storeId, name: group.name, policy: group.policy, created_at: createdAt })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.setPriceLists(storeId, Number(row.id), group.priceListIds);
    return toGroup(row, group.priceListIds);
  }

  async update(storeId: number, id: number, patch: Partial<NewCustomerGroup>): Promise<CustomerGroup | undefined> {
    const set = { ...(patch.name !== undefined && { name: patch.name }), ...(patch.policy !== undefined && { policy: patch.policy }) };
    const row =
      Object.keys(set).length === 0
        ? await this.db.selectFrom('customer_groups').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst()
        : await this.db.updateTable('customer_groups').set(set).where('store_id', '=', storeId).where('id', '=', id).returningAll().executeTakeFirst();
    if (row === undefined) return undefined;
    if (patch.priceListIds !== undefined) {
      await this.db.deleteFrom('customer_group_price_lists').where('store_id', '=', storeId).where('customer_group_id', '=', id).execute();
      await this.setPriceLists(storeId, id, patch.priceListIds);
    }
    const [group] = await this.withPriceLists(storeId, [row]);
    return group;
  }

  async delete(storeId: number, id: number): Promise<boolean> {
    await this.db.deleteFrom('customer_group_price_lists').where('store_id', '=', storeId).where('customer_group_id', '=', id).execute();
    const result = await this.db.deleteFrom('customer_groups').where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async removePriceList(storeId: number, priceListId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('customer_group_price_lists')
      .select('customer_group_id')
      .where('price_list_id', '=', priceListId)
      .where('store_id', '=', storeId)
      .orderBy('customer_group_id')
      .execute();
    if (rows.length === 0) return [];
    await this.db.deleteFrom('customer_group_price_lists').where('price_list_id', '=', priceListId).where('store_id', '=', storeId).execute();
    return rows.map((row) => Number(row.customer_group_id));
  }

  private filtered(storeId: number, filter: CustomerGroupFilter): SelectQueryBuilder<Tables, 'customer_groups', object> {
    let query = this.db.selectFrom('customer_groups').where('store_id', '=', storeId);
    if (filter.priceListId !== undefined) {
      const listId = filter.priceListId;
      query = query.where('id', 'in', (eb) => eb.selectFrom('customer_group_price_lists').select('customer_group_id').where('price_list_id', '=', listId));
    }
    return query;
  }

  private async setPriceLists(storeId: number, groupId: number, priceListIds: readonly number[]): Promise<void> {
    if (priceListIds.length === 0) return;
    await this.db
      .insertInto('customer_group_price_lists')
      .values(priceListIds.map((priceListId, position) => ({ store_id: storeId, customer_group_id: groupId, position, price_list_id: priceListId })))
      .execute();
  }

  /** The groups with their lists: one more query, however many groups. */
  private async withPriceLists(storeId: number, rows: readonly Selectable<CustomerGroupsTable>[]): Promise<CustomerGroup[]> {
    if (rows.length === 0) return [];
    const assignments = await this.db
      .selectFrom('customer_group_price_lists')
      .select(['customer_group_id', 'price_list_id'])
      .where('store_id', '=', storeId)
      .where(
        'customer_group_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('customer_group_id')
      .orderBy('position')
      .execute();
    const listsOf = idsByOwner(assignments.map((row) => [row.customer_group_id, row.price_list_id] as const));
    return rows.map((row) => toGroup(row, listsOf.get(Number(row.id)) ?? []));
  }
}

function toGroup(row: Selectable<CustomerGroupsTable>, priceListIds: number[]): CustomerGroup {
  return { id: Number(row.id), name: row.name, priceListIds, policy: row.policy as PriceListPolicy, createdAt: row.created_at };
}
