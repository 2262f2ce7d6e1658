import type { PricedSkuInput } from '../../contract/priced-sku.js';
import type { FieldProblem } from '../errors.js';
import type { Repositories } from '../unit-of-work.js';
import { type RuleFields, ruleFieldsOf } from './price-rule-input.js';
import { productProblems } from './product-references.js';

/** An item that passed: its product and SKU belong together, its window is well formed. */
export interface CheckedPricedSku extends RuleFields {
  productId: number;
  sku: string;
  price: number;
}

/**
 * Checks items of a price list's bulk create or of a replace against the store, in two queries
 * however many: each product must be the store's, each SKU the product's own or one of its
 * variations', each window well formed. Items at `refused` positions (the schema already
 * reported them) are skipped: the checks trust the shape of what they are given. Returns the
 * items that pass, in order, and the problems of the others, each with its `index`.
 */
export async function checkPricedSkus(
  repos: Repositories,
  storeId: number,
  items: readonly PricedSkuInput[],
  refused: ReadonlySet<number | undefined>,
): Promise<{ checked: CheckedPricedSku[]; problems: FieldProblem[] }> {
  const checkable = items.filter((_item, index) => !refused.has(index));
  const references = await repos.tradePrices.findReferences(
    storeId,
    [],
    [...new Set(checkable.map((item) => item.productId))],
    [...new Set(checkable.map((item) => item.sku))],
  );
  const problems: FieldProblem[] = [];
  const checked: CheckedPricedSku[] = [];
  items.forEach((item, index) => {
    if (refused.has(index)) return;
    problems.push(...productProblems(item, index, references));
    const rule = ruleFieldsOf(item, index);
    problems.push(...rule.problems);
    checked.push({ productId: item.productId, sku: item.sku, price: item.price, ...rule.fields });
  });
  return { checked, problems };
}
