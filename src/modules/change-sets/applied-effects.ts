import type { ChangeSetOperation } from '../../contract/change-sets.js';

/**
 * What an applied change set did, kept with it so that a revert can undo exactly that: the ids
 * of the trade prices and list entries it created and deleted, and the customers' lists and
 * the lists' percentages as they were before it first changed them.
 */
export interface AppliedEffects {
  tradePrices: { created: number[]; deleted: number[] };
  /** `[priceListId, id]` pairs. */
  listEntries: { created: Array<[number, number]>; deleted: Array<[number, number]> };
  customers: Array<{ id: number; priceListIds: number[] }>;
  lists: Array<{ id: number; percentage: number }>;
}

export function noEffects(): AppliedEffects {
  return { tradePrices: { created: [], deleted: [] }, listEntries: { created: [], deleted: [] }, customers: [], lists: [] };
}

/**
 * The operations that take an applied set back: customers' lists and lists' percentages set as
 * they were, records it created deleted, records it deleted restored with their own ids (so the
 * tie rule, newest id first, ranks them as before). A record both created and deleted by the
 * set is left alone.
 */
export function inverseOperations(effects: AppliedEffects): ChangeSetOperation[] {
  const operations: ChangeSetOperation[] = [];
  for (const customer of effects.customers) operations.push({ type: 'customer.set_price_lists', customerId: customer.id, priceListIds: customer.priceListIds });
  for (const list of effects.lists) operations.push({ type: 'price_list.set_percentage', priceListId: list.id, percentage: list.percentage });
  const createdPrices = new Set(effects.tradePrices.created);
  const deletedPrices = new Set(effects.tradePrices.deleted);
  for (const id of effects.tradePrices.created) if (!deletedPrices.has(id)) operations.push({ type: 'trade_price.delete', id });
  for (const id of effects.tradePrices.deleted) if (!createdPrices.has(id)) operations.push({ type: 'trade_price.restore', id });
  const key = ([listId, id]: [number, number]) => `${listId}:${id}`;
  const createdEntries = new Set(effects.listEntries.created.map(key));
  const deletedEntries = new Set(effects.listEntries.deleted.map(key));
  for (const entry of effects.listEntries.created) if (!deletedEntries.has(key(entry))) operations.push({ type: 'price_list_entry.delete', priceListId: entry[0], id: entry[1] });
  for (const entry of effects.listEntries.deleted) if (!createdEntries.has(key(entry))) operations.push({ type: 'price_list_entry.restore', priceListId: entry[0], id: entry[1] });
  return operations;
}
