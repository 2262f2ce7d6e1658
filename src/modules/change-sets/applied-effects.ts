import type { ChangeSetOperation } from '../../contract/change-sets.js';

/**
 * What an applied change set did, kept with it so that a revert can undo exactly that: the ids
 * of the trade prices and list entries it left live that were not before it (`created`) and left
 * gone that were live before it (`deleted`), and the customers' lists and the lists'
 * percentages as they were before it first changed them and as it left them. A record the set
 * deleted and restored (or created and deleted) is in neither: it is as it was.
 */
export interface AppliedEffects {
  tradePrices: { created: number[]; deleted: number[] };
  /** `[priceListId, id]` pairs. */
  listEntries: { created: Array<[number, number]>; deleted: Array<[number, number]> };
  /** `priceListIdsAfter`: what the set left (absent in sets applied before it was kept: their reverts expect nothing). */
  customers: Array<{ id: number; priceListIds: number[]; priceListIdsAfter?: number[] }>;
  lists: Array<{ id: number; percentage: number; percentageAfter?: number }>;
}

export function noEffects(): AppliedEffects {
  return { tradePrices: { created: [], deleted: [] }, listEntries: { created: [], deleted: [] }, customers: [], lists: [] };
}

/**
 * Each record's first and last change in a set, in the order they were made: whether it was
 * live before the set (its first change is a deletion) and is after it (its last is a creation).
 */
export class RecordChanges<K> {
  private readonly changes = new Map<string, { key: K; first: 'created' | 'deleted'; last: 'created' | 'deleted' }>();

  constructor(private readonly name: (key: K) => string) {}

  note(key: K, change: 'created' | 'deleted'): void {
    const held = this.changes.get(this.name(key));
    if (held === undefined) this.changes.set(this.name(key), { key, first: change, last: change });
    else held.last = change;
  }

  /** Live after the set, not before it: a revert deletes them. */
  created(): K[] {
    return [...this.changes.values()].filter((change) => change.first === 'created' && change.last === 'created').map((change) => change.key);
  }

  /** Live before the set, not after it: a revert restores them. */
  deleted(): K[] {
    return [...this.changes.values()].filter((change) => change.first === 'deleted' && change.last === 'deleted').map((change) => change.key);
  }
}

/**
 * The operations that take an applied set back: customers' lists and lists' percentages set as
 * they were, each only if it is still what the set left (a later change is refused, not
 * overwritten, as a trade price deleted since is); records it created deleted, records it
 * deleted restored with their own ids (so the tie rule, newest id first, ranks them as before).
 */
export function inverseOperations(effects: AppliedEffects): ChangeSetOperation[] {
  const operations: ChangeSetOperation[] = [];
  for (const { id, priceListIds, priceListIdsAfter } of effects.customers) {
    const expected = priceListIdsAfter === undefined ? {} : { expectedPriceListIds: priceListIdsAfter };
    operations.push({ type: 'customer.set_price_lists', customerId: id, priceListIds, ...expected });
  }
  for (const { id, percentage, percentageAfter } of effects.lists) {
    const expected = percentageAfter === undefined ? {} : { expectedPercentage: percentageAfter };
    operations.push({ type: 'price_list.set_percentage', priceListId: id, percentage, ...expected });
  }
  for (const id of effects.tradePrices.created) operations.push({ type: 'trade_price.delete', id });
  for (const id of effects.tradePrices.deleted) operations.push({ type: 'trade_price.restore', id });
  for (const [priceListId, id] of effects.listEntries.created) operations.push({ type: 'price_list_entry.delete', priceListId, id });
  for (const [priceListId, id] of effects.listEntries.deleted) operations.push({ type: 'price_list_entry.restore', priceListId, id });
  return operations;
}
