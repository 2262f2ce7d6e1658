import type { Customer, CustomerInput, CustomerUpdate } from '../../contract/customers.js';
import { isoTimestamp } from '../shared/clock.js';
import { asBulkItem, found, invalidField, notFound, UniqueViolation, validationFailed } from '../shared/errors.js';
import { assertPriceListsExist } from '../price-lists/assert-price-lists.js';
import type { FieldProblem } from '../../contract/errors.js';
import { eventOf, updateEventOf } from '../events/events.js';
import { customerPricingChanged, customerRecord } from '../history/change-records.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import { TradePriceWrites } from '../trade-prices/trade-price-writes.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { CustomerFilter, NewCustomer } from './customer-repository.js';
import { longWork, onNextTurn } from '../shared/long-work.js';
import { StoreRecordsService } from '../shared/store-records-service.js';

/** Customers' history entries hashed and written in one append of a bulk create. */
const HISTORY_PER_APPEND = 250;

export class CustomerService extends StoreRecordsService<Customer, CustomerFilter> {
  protected records(repos: Repositories) {
    return repos.customers;
  }

  async get(storeId: number, id: number): Promise<Customer> {
    return found(await this.uow.repos.customers.find(storeId, id), `Customer ${id}`);
  }

  /** The store's customers of these ids (`embed=customer`); missing ids and other stores' are simply absent. */
  findMany(storeId: number, ids: readonly number[]): Promise<Customer[]> {
    return this.uow.repos.customers.findMany(storeId, ids);
  }

  create(storeId: number, origin: ChangeOrigin, input: CustomerInput): Promise<Customer> {
    const complete = completeCustomer(input);
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      await assertPriceListsExist(repos, storeId, complete.priceListIds);
      await assertGroupExists(repos, storeId, complete.customerGroupId);
      const createdAt = isoTimestamp(this.clock);
      const created = await insertCustomer(repos, storeId, complete, createdAt);
      await repos.history.append(storeId, createdAt, origin, [customerRecord(null, created)]);
      return created;
    });
  }

  /**
   * Creates 1–1000 customers, all or none, in one transaction, each as `create` does (the same
   * write and `customer.created` event, in request order). `shapeProblems` are the schema's, an
   * item's with its `index`; every problem is reported together in one 422: an e-mail address
   * sent twice (ignoring case) or used in the store, a price list the store does not have.
   * Work: one query for the addresses, one for the price lists, then a fixed few per customer,
   * as long work (a turn of the event loop between customers once its budget has passed), with
   * turns of their own between history appends, before the commit and before the answer.
   */
  bulkCreate(storeId: number, origin: ChangeOrigin, items: readonly CustomerInput[], shapeProblems: readonly FieldProblem[] = []): Promise<Customer[]> {
    const refused = new Set(shapeProblems.map((problem) => problem.index));
    const drafts = items.map((item, index) => (refused.has(index) ? undefined : completeCustomer(item)));
    return this.uow
      .transaction(async (repos) => {
        await repos.history.lockChain(storeId);
        const work = longWork();
        // The schema's validation and the drafts came before: the checks get a turn of their own.
        await work.turn();
        const problems = [...shapeProblems, ...(await bulkCustomerProblems(repos, storeId, drafts))];
        if (problems.length > 0) throw validationFailed(problems, items.length);
        const createdAt = isoTimestamp(this.clock);
        const created: Customer[] = [];
        for (const [index, draft] of drafts.entries()) {
          created.push(await asBulkItem(index, items.length, insertCustomer(repos, storeId, draft!, createdAt)));
          await work.step();
        }
        // The history in appends of HISTORY_PER_APPEND, each a stretch of its own: the whole
        // request's 1000 in one (hashing and writing them) held the loop 57 ms on a slower machine.
        for (let start = 0; start < created.length; start += HISTORY_PER_APPEND) {
          await repos.history.append(
            storeId,
            createdAt,
            origin,
            created.slice(start, start + HISTORY_PER_APPEND).map((customer) => customerRecord(null, customer)),
          );
          await work.turn();
        }
        // The commit gets a turn of its own, and so does the answer.
        await work.turn();
        return created;
      })
      .then(onNextTurn);
  }

  /**
   * Changes the fields sent. The event carries the customer as it was (`previous`); the history
   * records the change when it touches what the customer pays: its lists, group, trade or active flag.
   */
  update(storeId: number, origin: ChangeOrigin, id: number, patch: CustomerUpdate): Promise<Customer> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const current = found(await repos.customers.find(storeId, id), `Customer ${id}`);
      if (patch.priceListIds !== undefined) await assertPriceListsExist(repos, storeId, patch.priceListIds);
      await assertGroupExists(repos, storeId, patch.customerGroupId);
      const updated = found(await withEmailRule(repos.customers.update(storeId, id, patch)), `Customer ${id}`);
      const changedAt = isoTimestamp(this.clock);
      await repos.events.append([updateEventOf(storeId, 'customer.updated', current, updated)], changedAt);
      if (customerPricingChanged(current, updated)) await repos.history.append(storeId, changedAt, origin, [customerRecord(current, updated)]);
      return updated;
    });
  }

  /**
   * Deletes the customer and, in the same transaction, its trade prices (in batches); each
   * deletion is an event, the prices' first.
   */
  remove(storeId: number, origin: ChangeOrigin, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const customer = found(await repos.customers.find(storeId, id), `Customer ${id}`);
      const deletedAt = isoTimestamp(this.clock);
      await new TradePriceWrites(repos, storeId, origin, deletedAt).removeAllOf({ customerId: id });
      if (!(await repos.customers.delete(storeId, id))) throw notFound(`Customer ${id}`);
      await repos.events.append([eventOf(storeId, 'customer.deleted', customer)], deletedAt);
      await repos.history.append(storeId, deletedAt, origin, [customerRecord(customer, null)]);
    });
  }
}

/** Every field decided: what a create stores. */
function completeCustomer(input: CustomerInput): NewCustomer {
  return {
    email: input.email,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    companyName: input.companyName ?? null,
    trade: input.trade ?? false,
    active: input.active ?? true,
    priceListIds: input.priceListIds ?? [],
    customerGroupId: input.customerGroupId ?? null,
  };
}

/** The write of one checked customer and its event, in the caller's transaction (the caller appends its history). */
async function insertCustomer(repos: Repositories, storeId: number, customer: NewCustomer, createdAt: string): Promise<Customer> {
  const created = await withEmailRule(repos.customers.insert(storeId, customer, createdAt));
  await repos.events.append([eventOf(storeId, 'customer.created', created)], createdAt);
  return created;
}

/**
 * A bulk create's problems with each other and with the store, each with its item's `index`;
 * items the schema refused (undefined) are not checked.
 */
async function bulkCustomerProblems(repos: Repositories, storeId: number, drafts: ReadonlyArray<NewCustomer | undefined>): Promise<FieldProblem[]> {
  const checked = drafts.flatMap((draft, index) => (draft === undefined ? [] : [{ draft, index }]));
  const used = await repos.customers.tradeFlagsByEmail(
    storeId,
    checked.map(({ draft }) => draft.email),
  );
  const lists = await repos.priceLists.existingIds(storeId, [...new Set(checked.flatMap(({ draft }) => draft.priceListIds))]);
  const groups = await repos.customerGroups.existingIds(storeId, [
    ...new Set(checked.flatMap(({ draft }) => (draft.customerGroupId === null ? [] : [draft.customerGroupId]))),
  ]);
  const firstSent = new Map<string, number>();
  const problems: FieldProblem[] = [];
  for (const { draft, index } of checked) {
    const key = draft.email.toLowerCase();
    const earlier = firstSent.get(key);
    if (earlier !== undefined) problems.push({ index, field: 'email', message: `is also sent by item ${earlier}` });
    else firstSent.set(key, index);
    if (used.has(key)) problems.push({ index, field: 'email', message: EMAIL_IN_USE });
    draft.priceListIds.forEach((id, position) => {
      if (!lists.has(id)) problems.push({ index, field: `priceListIds[${position}]`, message: `Price list ${id} does not exist in this store` });
    });
    if (draft.customerGroupId !== null && !groups.has(draft.customerGroupId))
      problems.push({ index, field: 'customerGroupId', message: groupMissing(draft.customerGroupId) });
  }
  return problems;
}

/** 422 when `customerGroupId` is not a group of the store. */
async function assertGroupExists(repos: Repositories, storeId: number, customerGroupId: number | null | undefined): Promise<void> {
  if (customerGroupId === null || customerGroupId === undefined) return;
  if ((await repos.customerGroups.existingIds(storeId, [customerGroupId])).size === 0) throw invalidField('customerGroupId', groupMissing(customerGroupId));
}

function groupMissing(id: number): string {
  return `Customer group ${id} does not exist in this store`;
}

const EMAIL_IN_USE = 'is already used by another customer of this store';

async function withEmailRule<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof UniqueViolation && error.target === 'email') {
      throw invalidField('email', EMAIL_IN_USE);
    }
    throw error;
  }
}
