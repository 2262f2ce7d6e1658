import type { FieldProblem } from '../../contract/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { skuInUseMessage, skuTwiceInProductMessage, type SkuSlot } from './sku-rules.js';

/** Ids in one `IN (…)` of the category check: a request may name up to 100 per product. */
const CATEGORY_CHECK_CHUNK = 1000;

/** One product of a bulk create, as its checks see it: its SKUs with their fields, its categories. */
export interface ProductDraftRefs {
  slots: readonly SkuSlot[];
  categoryIds: readonly number[];
}

/**
 * Every problem of a bulk create's products with each other and with the store, each with its
 * item's `index`: a SKU named twice (in one product, or by two), a SKU the store uses, a category
 * it does not have. `drafts` holds undefined for items the schema refused: their fields are not
 * trusted and not checked. One query for all the SKUs, one per 1000 categories.
 */
export async function bulkProductProblems(repos: Repositories, storeId: number, drafts: ReadonlyArray<ProductDraftRefs | undefined>): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  const firstNamed = new Map<string, number>();
  const skus = new Set<string>();
  const categoryIds = new Set<number>();
  for (const [index, draft] of drafts.entries()) {
    if (draft === undefined) continue;
    for (const slot of draft.slots) {
      skus.add(slot.sku);
      const earlier = firstNamed.get(slot.sku);
      if (earlier === undefined) firstNamed.set(slot.sku, index);
      else
        problems.push({
          index,
          field: slot.field ?? null,
          message: earlier === index ? skuTwiceInProductMessage(slot.sku) : `SKU '${slot.sku}' is also sent by item ${earlier}`,
        });
    }
    for (const categoryId of draft.categoryIds) categoryIds.add(categoryId);
  }

  const taken = new Set((await repos.skus.holders(storeId, [...skus])).map((holder) => holder.sku));
  const existing = new Set<number>();
  const wanted = [...categoryIds];
  for (let start = 0; start < wanted.length; start += CATEGORY_CHECK_CHUNK) {
    for (const id of await repos.categories.existing(storeId, wanted.slice(start, start + CATEGORY_CHECK_CHUNK))) existing.add(id);
  }
  for (const [index, draft] of drafts.entries()) {
    if (draft === undefined) continue;
    for (const slot of draft.slots) if (taken.has(slot.sku)) problems.push({ index, field: slot.field ?? null, message: skuInUseMessage(slot.sku) });
    for (const categoryId of draft.categoryIds) {
      if (!existing.has(categoryId)) problems.push({ index, field: 'categoryIds', message: `Category ${categoryId} does not exist in this store` });
    }
  }
  return problems;
}
