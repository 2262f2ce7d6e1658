import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Customer, CustomerInput, CustomerUpdate } from '../../contract/customers.js';
import type { CustomerFilter, CustomerRepository } from '../../modules/customers/customer-repository.js';
import type { Page } from '../../modules/page.js';
import type { CustomersTable, Tables } from '../tables.js';
import { mapUniqueViolation } from '../unique-violation.js';
import { fromFlag, toFlag } from './values.js';

export class KyselyCustomerRepository implements CustomerRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(storeId: number, filter: CustomerFilter, page: Page): Promise<Customer[]> {
    const rows = await this.filtered(storeId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return rows.map(toCustomer);
  }

  async count(storeId: number, filter: CustomerFilter): Promise<number> {
    const row = await this.filtered(storeId, filter).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<Customer | undefined> {
    const row = await this.db.selectFrom('customers').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row && toCustomer(row);
  }

  async findMany(storeId: number, ids: readonly number[]): Promise<Customer[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('customers').selectAll().where('store_id', '=', storeId).where('id', 'in', [...ids]).execute();
    return rows.map(toCustomer);
  }

  async insert(storeId: number, input: Required<CustomerInput>, createdAt: string): Promise<Customer> {
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
          created_at: createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toCustomer(row);
  }

  async update(storeId: number, id: number, patch: CustomerUpdate): Promise<Customer | undefined> {
    const row = await mapUniqueViolation(
      this.db
        .updateTable('customers')
        .set({
          ...(patch.email !== undefined && { email: patch.email, email_key: patch.email.toLowerCase() }),
          ...(patch.firstName !== undefined && { first_name: patch.firstName }),
          ...(patch.lastName !== undefined && { last_name: patch.lastName }),
          ...(patch.companyName !== undefined && { company_name: patch.companyName }),
          ...(patch.trade !== undefined && { trade: toFlag(patch.trade) }),
          ...(patch.active !== undefined && { active: toFlag(patch.active) }),
        })
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toCustomer(row);
  }

  async delete(storeId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('customers').where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  private filtered(storeId: number, filter: CustomerFilter): SelectQueryBuilder<Tables, 'customers', object> {
    let query = this.db.selectFrom('customers').where('store_id', '=', storeId);
    if (filter.email !== undefined) query = query.where('email_key', '=', filter.email.toLowerCase());
    if (filter.trade !== undefined) query = query.where('trade', '=', toFlag(filter.trade));
    return query;
  }
}

function toCustomer(row: Selectable<CustomersTable>): Customer {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    companyName: row.company_name,
    trade: fromFlag(row.trade),
    active: fromFlag(row.active),
    createdAt: row.created_at,
  };
}
