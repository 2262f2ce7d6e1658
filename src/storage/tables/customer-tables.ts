import type { Generated } from 'kysely';

/* Customers, their groups, and the price lists each has in order. */

export interface CustomersTable {
  id: Generated<number>;
  store_id: number;
  email: string;
  /** Lower-cased email: uniqueness in a store ignores case. */
  email_key: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  trade: number;
  active: number;
  /** At most one group; null: none. */
  customer_group_id: number | null;
  created_at: string;
}

export interface CustomerGroupsTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  /** `first` or `lowest`: how the group's lists apply to its customers (migration 027). */
  policy: Generated<string>;
  created_at: string;
}

/** A customer's price lists in order: position 0 wins over 1, and so on. */
export interface CustomerPriceListsTable {
  store_id: number;
  customer_id: number;
  position: number;
  price_list_id: number;
}

/** A group's lists, position 0 first, as a customer's own. */
export interface CustomerGroupPriceListsTable {
  store_id: number;
  customer_group_id: number;
  position: number;
  price_list_id: number;
}

/** Customers and their groups: this area's tables, by name (composed into `Tables`). */
export interface CustomerTables {
  customers: CustomersTable;
  customer_price_lists: CustomerPriceListsTable;
  customer_groups: CustomerGroupsTable;
  customer_group_price_lists: CustomerGroupPriceListsTable;
}
