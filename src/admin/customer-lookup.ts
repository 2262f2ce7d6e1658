import { type Pricebook, PricebookError } from '@pricebook/client/browser';
import type { Customer } from '../contract/customers.js';

/** A customer named by id (digits) or by email (exact, ignoring case); undefined when none is. */
export async function findCustomer(api: Pricebook, text: string): Promise<Customer | undefined> {
  const name = text.trim();
  if (/^[1-9]\d*$/.test(name)) {
    try {
      return await api.customers.get(Number(name));
    } catch (error) {
      if (error instanceof PricebookError && error.status === 404) return undefined;
      throw error;
    }
  }
  const [customer] = await api.customers.list({ email: name, count: 1 });
  return customer;
}
