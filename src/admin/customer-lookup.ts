import type { Customer } from '../contract/customers.js';
import { ApiError, type ApiClient } from './api-client.js';

/** A customer named by id (digits) or by email (exact, ignoring case); undefined when none is. */
export async function findCustomer(api: ApiClient, text: string, signal: AbortSignal): Promise<Customer | undefined> {
  const name = text.trim();
  if (/^[1-9]\d*$/.test(name)) {
    try {
      return await api.get<Customer>(`/customers/${name}`, undefined, signal);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }
  const [customer] = await api.get<Customer[]>('/customers', { email: name, count: 1 }, signal);
  return customer;
}
