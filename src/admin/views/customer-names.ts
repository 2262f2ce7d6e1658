import type { Pricebook } from '@pricebook/client/browser';
import { customerName } from './customers.js';

/** How many customers the page keeps named, and how many it asks for at once. */
const KEPT = 200;
const AT_ONCE = 4;

/** Names already asked for, oldest first (a Map keeps insertion order): reused, and the oldest dropped past KEPT. */
const names = new Map<number, Promise<string>>();

/** "#id": what a customer is called when its name cannot be read. */
export function customerTag(id: number): string {
  return `#${id}`;
}

async function nameOf(api: Pricebook, id: number): Promise<string> {
  const kept = names.get(id);
  if (kept !== undefined) {
    names.delete(id);
    names.set(id, kept);
    return kept;
  }
  const asked = api.customers.get(id).then(customerName, () => {
    names.delete(id); // a failure is not kept: the next view asks again
    return customerTag(id);
  });
  names.set(id, asked);
  while (names.size > KEPT) names.delete(names.keys().next().value!);
  return asked;
}

/**
 * The names of the customers `ids` names (each once), through `GET /v1/customers/{id}`, at most
 * AT_ONCE requests at a time and a name already read reused; a customer that cannot be read is
 * called "#id". The list of customers has no id filter, so this is one request per new customer.
 */
export async function customerNames(api: Pricebook, ids: Iterable<number | null | undefined>): Promise<Map<number, string>> {
  const wanted = [...new Set([...ids].filter((id): id is number => typeof id === 'number'))];
  const found = new Map<number, string>();
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const id = wanted[next++]!;
      found.set(id, await nameOf(api, id));
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, wanted.length) }, worker));
  return found;
}

/** The name `names` has for customer `id`, else "#id". */
export function nameIn(names: ReadonlyMap<number, string>, id: number): string {
  return names.get(id) ?? customerTag(id);
}
