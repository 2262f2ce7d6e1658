import type { Customer, CustomerInput, CustomerUpdate } from '../../contract/customers.js';
import type { Page } from '../shared/page.js';

export interface CustomerFilter {
  email?: string;
  trade?: boolean;
  /** Only customers that have this price list (their own). */
  priceListId?: number;
  /** Only customers of this group. */
  customerGroupId?: number;
}

/** A customer as created: every field decided, `priceListIds` in their order. */
export type NewCustomer = Required<CustomerInput>;

export interface CustomerRepository {
  list(storeId: number, filter: CustomerFilter, page: Page): Promise<Customer[]>;
  count(storeId: number, filter: CustomerFilter): Promise<number>;
  find(storeId: number, id: number): Promise<Customer | undefined>;
  /** Whether each of these customers of the store is a trade customer, by id (others absent). */
  tradeFlags(storeId: number, ids: readonly number[]): Promise<Map<number, { id: number; trade: boolean }>>;
  /** The same by e-mail address, keyed by the address in lower case (uniqueness ignores case). */
  tradeFlagsByEmail(storeId: number, emails: readonly string[]): Promise<Map<string, { id: number; trade: boolean }>>;
  /** Finds several at once; missing and other stores' ids are simply absent. */
  findMany(storeId: number, ids: readonly number[]): Promise<Customer[]>;
  /** Throws UniqueViolation('email') when the store has the email already. */
  insert(storeId: number, input: NewCustomer, createdAt: string): Promise<Customer>;
  /** `priceListIds`, when given, replaces the customer's lists. */
  update(storeId: number, id: number, patch: CustomerUpdate): Promise<Customer | undefined>;
  /** Deletes the customer and its price list assignments. */
  delete(storeId: number, id: number): Promise<boolean>;
  /**
   * Takes the price list from the `limit` lowest-id customers above `afterId` that have it and
   * returns their ids, ascending: a list's removal goes in bounded batches.
   */
  removePriceListBatch(storeId: number, priceListId: number, afterId: number, limit: number): Promise<number[]>;
  /** The ids `removePriceListBatch` would take the list from, without taking it. */
  withPriceListBatch(storeId: number, priceListId: number, afterId: number, limit: number): Promise<number[]>;
  /** The `limit` lowest ids above `afterId` of the group's customers, ascending. */
  inGroupBatch(storeId: number, customerGroupId: number, afterId: number, limit: number): Promise<number[]>;
  /** Takes these customers out of the group (to none). */
  leaveGroup(storeId: number, customerGroupId: number, customerIds: readonly number[]): Promise<void>;
}
