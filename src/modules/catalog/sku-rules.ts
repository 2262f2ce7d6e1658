import { validationFailed } from '../shared/errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { SkuHolder } from './sku-repository.js';

/**
 * One SKU a product will hold after a write, with the request field that names it
 * (`sku`, `variations[2].sku`), or undefined when it is kept from before the write.
 */
export interface SkuSlot {
  sku: string;
  field: string | undefined;
}

export function skuInUseMessage(sku: string): string {
  return `SKU '${sku}' is already in use in this store`;
}

export function skuTwiceInProductMessage(sku: string): string {
  return `SKU '${sku}' appears more than once in this product`;
}

/** A SKU named twice in one product: the later naming that the request sent is reported. */
export function duplicateSkuProblems(slots: readonly SkuSlot[]): FieldProblem[] {
  const first = new Map<string, SkuSlot>();
  const problems: FieldProblem[] = [];
  for (const slot of slots) {
    const earlier = first.get(slot.sku);
    if (earlier === undefined) {
      first.set(slot.sku, slot);
      continue;
    }
    problems.push({ field: slot.field ?? earlier.field ?? null, message: skuTwiceInProductMessage(slot.sku) });
  }
  return problems;
}

/**
 * The requested SKUs the store already uses elsewhere. SKUs held by `ownProductId` are not in
 * use elsewhere: a product may move a SKU between itself and its variations.
 */
export async function skusInUseProblems(repos: Repositories, storeId: number, slots: readonly SkuSlot[], ownProductId?: number): Promise<FieldProblem[]> {
  const requested = slots.filter((slot): slot is SkuSlot & { field: string } => slot.field !== undefined);
  if (requested.length === 0) return [];
  const holders = await repos.skus.holders(storeId, [...new Set(requested.map((slot) => slot.sku))]);
  const taken = new Set(holders.filter((holder) => holder.productId !== ownProductId).map((holder) => holder.sku));
  return requested.filter((slot) => taken.has(slot.sku)).map((slot) => ({ field: slot.field, message: skuInUseMessage(slot.sku) }));
}

/**
 * Registers the SKUs. Checks before the write cannot see a concurrent writer's uncommitted
 * claim; the register's key settles that race, and the loser gets the same 422 as if it had
 * come second.
 */
export async function claimSkus(repos: Repositories, storeId: number, entries: readonly SkuHolder[], slots: readonly SkuSlot[]): Promise<void> {
  if (entries.length === 0) return;
  const lost = new Set(await repos.skus.claim(storeId, entries));
  if (lost.size === 0) return;
  throw validationFailed([...lost].map((sku) => ({ field: slots.find((slot) => slot.sku === sku)?.field ?? null, message: skuInUseMessage(sku) })));
}
