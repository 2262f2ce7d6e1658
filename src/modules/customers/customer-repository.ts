import type { Customer, CustomerInput, CustomerUpdate } from '../../contract/customers.js';
import type { Page } from '../page.js';

export interface CustomerFilter {
  email?: string;
  trade?: boolean;
}

export interface CustomerRepository {
  list(storeId: number, filter: CustomerFilter, page: Page): Promise<Customer[]>;
  count(storeId: number, filter: CustomerFilter): Promise<number>;
  find(storeId: number, id: number): Promise<Customer | undefined>;
  /** Finds several at once; missing and other stores' ids are simply absent. */
  findMany(storeId: number, ids: readonly number[]): Promise<Customer[]>;
  /** Throws UniqueViolation('email') when the store has the email already. */
  insert(storeId: number, input: Required<CustomerInput>, createdAt: string): Promise<Customer>;
  update(storeId: number, id: number, patch: CustomerUpdate): Promise<Customer | undefined>;
  delete(storeId: number, id: number): Promise<boolean>;
}
