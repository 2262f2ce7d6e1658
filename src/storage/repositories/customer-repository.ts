import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Customer, CustomerUpdate } from '../../contract/customers.js';
import type { CustomerFilter, CustomerRepository, NewCustomer } from '../../modules/customers/customer-repository.js';
import type { Page } from '../../modules/shared/page.js';
import type { Tables } from '../tables.js';
import type { CustomersTable } from '../tables/customer-tables.js';
import { mapUniqueViolation } from '../unique-violation.js';
import { idsByOwner } from './ordered-ids.js';
import { fromFlag, toFlag } from './values.js';

export class KyselyCustomerRepository implements CustomerRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(storeId: number, filter: CustomerFilter, page: Page): Promise<Customer[]> {
    const rows = await this.filtered(storeId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return this.withPriceLists(storeId, rows);
  }

  async count(storeId: number, filter: CustomerFilter): Promise<number> {
    const row = await this.filtered(storeId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<Customer | undefined> {
    const row = await this.db.selectFrom('customers').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    if (row === undefined) return undefined;
    const [customer] = await this.withPriceLists(storeId, [row]);
    return customer;
  }

  async findMany(storeId: number, ids: readonly number[]): Promise<Customer[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('customers')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('id', 'in', [...ids])
      .execute();
    return this.withPriceLists(storeId, rows);
  }

  async tradeFlags(storeId: number, ids: readonly number[]): Promise<Map<number, { id: number; trade: boolean }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('customers')
      .select(['id', 'trade'])
      .where('store_id', '=', storeId)
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((row) => [Number(row.id), { id: Number(row.id), trade: fromFlag(row.trade) }]));
  }

  async tradeFlagsByEmail(storeId: number, emails: readonly string[]): Promise<Map<string, { id: number; trade: boolean }>> {
    if (emails.length === 0) return new Map();
    const keys = [...new Set(emails.map((email) => email.toLowerCase()))];
    const rows = await this.db
      .selectFrom('customers')
      .select(['id', 'trade', 'email_key'])
      .where('store_id', '=', storeId)
      .where('email_key', 'in', keys)
      .execute();
    return new Map(rows.map((row) => [row.email_key, { id: Number(row.id), trade: fromFlag(row.trade) }]));
  }

  async insert(storeId: number, input: NewCustomer, createdAt: string): Promise<Customer> {
    const row = await mapUniqueViolation(
      this.db
        .insertInto('customers')
        .values({
          store_id: storeId,
          email: input.email,
          email_key: input.email.toLowerCase(),
          first_name: input.firstName,
          last_name: input.lastName,
          company_name: input.companyName,
          trade: toFlag(input.trade),
          active: toFlag(input.active),
          customer_group_id: input.customerGroupId,
          created_at: createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    await this.setPriceLists(storeId, row.id, input.priceListIds);
    return toCustomer(row, input.priceListIds);
  }

  async update(storeId: number, id: number, patch: CustomerUpdate): Promise<Customer | undefined> {
    const columns = {
      ...(patch.email !== undefined && { email: patch.email, email_key: patch.email.toLowerCase() }),
      ...(patch.firstName !== undefined && { first_name: patch.firstName }),
      ...(patch.lastName !== undefined && { last_name: patch.lastName }),
      ...(patch.companyName !== undefined && { company_name: patch.companyName }),
      ...(patch.trade !== undefined && { trade: toFlag(patch.trade) }),
      ...(patch.active !== undefined && { active: toFlag(patch.active) }),
      ...(patch.customerGroupId !== undefined && { customer_group_id: patch.customerGroupId }),
    };
    // A patch of the price lists alone changes no column of the customer itself.
    const row =
      Object.keys(columns).length === 0
        ? await this.db.selectFrom('customers').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst()
        : await mapUniqueViolation(
            this.db.updateTable('customers').set(columns).where('store_id', '=', storeId).where('id', '=', id).returningAll().executeTakeFirst(),
          );
    if (row === undefined) return undefined;
    if (patch.priceListIds !== undefined) {
      await this.db.deleteFrom('customer_price_lists').where('store_id', '=', storeId).where('customer_id', '=', id).execute();
      await this.setPriceLists(storeId, id, patch.priceListIds);
    }
    const [customer] = await this.withPriceLists(storeId, [row]);
    return customer;
  }

  async removePriceListBatch(storeId: number, priceListId: number, afterId: number, limit: number): Promise<number[]> {
    const customerIds = await this.withPriceListBatch(storeId, priceListId, afterId, limit);
    if (customerIds.length === 0) return [];
    await this.db.deleteFrom('customer_price_lists').where('price_list_id', '=', priceListId).where('customer_id', 'in', customerIds).execute();
    return customerIds;
  }

  async withPriceListBatch(storeId: number, priceListId: number, afterId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('customer_price_lists')
      .select('customer_id')
      .where('price_list_id', '=', priceListId)
      .where('store_id', '=', storeId)
      .where('customer_id', '>', afterId)
      .orderBy('customer_id')
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.customer_id));
  }

  async inGroupBatch(storeId: number, customerGroupId: number, afterId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('customers')
      .select('id')
      .where('store_id', '=', storeId)
      .where('customer_group_id', '=', customerGroupId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.id));
  }

  async leaveGroup(storeId: number, customerGroupId: number, customerIds: readonly number[]): Promise<void> {
    if (customerIds.length === 0) return;
    await this.db
      .updateTable('customers')
      .set({ customer_group_id: null })
      .where('store_id', '=', storeId)
      .where('customer_group_id', '=', customerGroupId)
      .where('id', 'in', [...customerIds])
      .execute();
  }

  async delete(storeId: number, id: number): Promise<boolean> {
    await this.db.deleteFrom('customer_price_lists').where('store_id', '=', storeId).where('customer_id', '=', id).execute();
    const result = await this.db.deleteFrom('customers').where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  private filtered(storeId: number, filter: CustomerFilter): SelectQueryBuilder<Tables, 'customers', object> {
    let query = this.db.selectFrom('customers').where('store_id', '=', storeId);
    if (filter.email !== undefined) query = query.where('email_key', '=', filter.email.toLowerCase());
    if (filter.trade !== undefined) query = query.where('trade', '=', toFlag(filter.trade));
    if (filter.customerGroupId !== undefined) query = query.where('customer_group_id', '=', filter.customerGroupId);
    if (filter.priceListId !== undefined) {
      const listId = filter.priceListId;
      query = query.where('id', 'in', (eb) => eb.selectFrom('customer_price_lists').select('customer_id').where('price_list_id', '=', listId));
    }
    return query;
  }

  /** Gives the customer these lists, position 0 first. */
  private async setPriceLists(storeId: number, customerId: number, priceListIds: readonly number[]): Promise<void> {
    if (priceListIds.length === 0) return;
    await this.db
      .insertInto('customer_price_lists')
      .values(priceListIds.map((priceListId, position) => ({ store_id: storeId, customer_id: customerId, position, price_list_id: priceListId })))
      .execute();
  }

  /** The page's customers with their lists: one more query, however long the page. */
  private async withPriceLists(storeId: number, rows: readonly Selectable<CustomersTable>[]): Promise<Customer[]> {
    if (rows.length === 0) return [];
    const assignments = await this.db
      .selectFrom('customer_price_lists')
      .select(['customer_id', 'price_list_id'])
      .where('store_id', '=', storeId)
      .where(
        'customer_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('customer_id')
      .orderBy('position')
      .execute();
    const listsOf = idsByOwner(assignments.map((row) => [row.customer_id, row.price_list_id] as const));
    return rows.map((row) => toCustomer(row, listsOf.get(Number(row.id)) ?? []));
  }
}

function toCustomer(row: Selectable<CustomersTable>, priceListIds: number[]): Customer {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    companyName: row.company_name,
    trade: fromFlag(row.trade),
    active: fromFlag(row.active),
    priceListIds,
    customerGroupId: row.customer_group_id === null ? null : Number(row.customer_group_id),
    createdAt: row.created_at,
  };
}
