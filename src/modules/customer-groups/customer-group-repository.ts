import type { CustomerGroup } from '../../contract/customer-groups.js';
import type { PriceListPolicy } from '../../contract/price-lists.js';
import type { Page } from '../shared/page.js';

export interface CustomerGroupFilter {
  /** Only groups that have this price list. */
  priceListId?: number;
}

/** A group as created: its name, its lists in order and how they apply. */
export interface NewCustomerGroup {
  name: string;
  priceListIds: number[];
  policy: PriceListPolicy;
}

export interface CustomerGroupRepository {
  list(storeId: number, filter: CustomerGroupFilter, page: Page): Promise<CustomerGroup[]>;
  count(storeId: number, filter: CustomerGroupFilter): Promise<number>;
  find(storeId: number, id: number): Promise<CustomerGroup | undefined>;
  /** Several at once; missing and other stores' ids are absent. */
  findMany(storeId: number, ids: readonly number[]): Promise<CustomerGroup[]>;
  /** Which of these ids are groups of the store. */
  existingIds(storeId: number, ids: readonly number[]): Promise<Set<number>>;
  insert(storeId: number, group: NewCustomerGroup, createdAt: string): Promise<CustomerGroup>;
  /** `priceListIds`, when given, replaces the group's lists. */
  update(storeId: number, id: number, patch: Partial<NewCustomerGroup>): Promise<CustomerGroup | undefined>;
  /** Deletes the group and its lists; its customers must have left it. */
  delete(storeId: number, id: number): Promise<boolean>;
  /** Takes the price list from every group of the store that has it; answers their ids, ascending. */
  removePriceList(storeId: number, priceListId: number): Promise<number[]>;
}
