import type { Customer, CustomerInput, CustomerUpdate } from '../../contract/customers.js';
import { type Clock, isoTimestamp } from '../clock.js';
import { found, invalidField, notFound, UniqueViolation, validationFailed } from '../errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import type { Page } from '../page.js';
import { eventOf } from '../events/events.js';
import { TradePriceWrites } from '../trade-prices/trade-price-writes.js';
import type { Repositories, UnitOfWork } from '../unit-of-work.js';
import type { CustomerFilter, NewCustomer } from './customer-repository.js';

export class CustomerService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  list(storeId: number, filter: CustomerFilter, page: Page): Promise<Customer[]> {
    return this.uow.repos.customers.list(storeId, filter, page);
  }

  count(storeId: number, filter: CustomerFilter): Promise<number> {
    return this.uow.repos.customers.count(storeId, filter);
  }

  async get(storeId: number, id: number): Promise<Customer> {
    return found(await this.uow.repos.customers.find(storeId, id), `Customer ${id}`);
  }

  /** The store's customers of these ids (`embed=customer`); missing ids and other stores' are simply absent. */
  findMany(storeId: number, ids: readonly number[]): Promise<Customer[]> {
    return this.uow.repos.customers.findMany(storeId, ids);
  }

  create(storeId: number, input: CustomerInput): Promise<Customer> {
    const complete: NewCustomer = {
      email: input.email,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      companyName: input.companyName ?? null,
      trade: input.trade ?? false,
      active: input.active ?? true,
      priceListIds: input.priceListIds ?? [],
    };
    return this.uow.transaction(async (repos) => {
      await assertPriceListsExist(repos, storeId, complete.priceListIds);
      const createdAt = isoTimestamp(this.clock);
      const created = await withEmailRule(repos.customers.insert(storeId, complete, createdAt));
      await repos.events.append([eventOf(storeId, 'customer.created', created)], createdAt);
      return created;
    });
  }

  update(storeId: number, id: number, patch: CustomerUpdate): Promise<Customer> {
    return this.uow.transaction(async (repos) => {
      if (patch.priceListIds !== undefined) await assertPriceListsExist(repos, storeId, patch.priceListIds);
      const updated = found(await withEmailRule(repos.customers.update(storeId, id, patch)), `Customer ${id}`);
      await repos.events.append([eventOf(storeId, 'customer.updated', updated)], isoTimestamp(this.clock));
      return updated;
    });
  }

  /**
   * Deletes the customer and, in the same transaction, its trade prices (in batches); each
   * deletion is an event, the prices' first.
   */
  remove(storeId: number, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      const customer = found(await repos.customers.find(storeId, id), `Customer ${id}`);
      const deletedAt = isoTimestamp(this.clock);
      await new TradePriceWrites(repos, storeId, deletedAt).removeAllOf({ customerId: id });
      if (!(await repos.customers.delete(storeId, id))) throw notFound(`Customer ${id}`);
      await repos.events.append([eventOf(storeId, 'customer.deleted', customer)], deletedAt);
    });
  }
}

/** 422 naming each id that is not a price list of the store. */
async function assertPriceListsExist(repos: Repositories, storeId: number, priceListIds: readonly number[]): Promise<void> {
  if (priceListIds.length === 0) return;
  const existing = await repos.priceLists.existingIds(storeId, priceListIds);
  const problems: FieldProblem[] = priceListIds.flatMap((id, position) =>
    existing.has(id) ? [] : [{ field: `priceListIds[${position}]`, message: `Price list ${id} does not exist in this store` }],
  );
  if (problems.length > 0) throw validationFailed(problems);
}

async function withEmailRule<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof UniqueViolation && error.target === 'email') {
      throw invalidField('email', 'is already used by another customer of this store');
    }
    throw error;
  }
}
