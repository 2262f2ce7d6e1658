import type { FieldProblem } from '../../contract/errors.js';
import type { PriceListPriceInput } from '../../contract/price-lists.js';
import type { PricedEntry } from './price-list-repository.js';
import { checkPricedItems } from '../pricing/priced-sku-check.js';
import { ruleOfInput, ruleProblems } from '../quantity-rules/quantity-rule.js';
import type { Repositories } from '../shared/unit-of-work.js';

/**
 * The check of a batch of list entries (a bulk create, a replace, a change set's entries): each
 * as a priced item (`checkPricedItems`), and its own quantity rule made whole and checked as a
 * product's is, at `quantityRule.minimum` or `.maximum` of the item. Every problem at once.
 */
export async function checkEntryItems(
  repos: Repositories,
  storeId: number,
  items: readonly PriceListPriceInput[],
  shapeProblems: readonly FieldProblem[],
): Promise<{ checked: PricedEntry[]; problems: FieldProblem[] }> {
  const { checked, problems } = await checkPricedItems(repos, storeId, items, shapeProblems);
  // A rule the schema refused any part of is not looked at again.
  const refusedRules = new Set(
    shapeProblems
      .filter((problem) => problem.field === null || problem.field === undefined || problem.field.startsWith('quantityRule'))
      .map((problem) => problem.index),
  );
  const rules = items.map((item, index) => (refusedRules.has(index) ? null : ruleOfInput(item.quantityRule)));
  rules.forEach((rule, index) => {
    if (rule !== null) problems.push(...ruleProblems(rule, 'quantityRule', index));
  });
  if (problems.length > 0) return { checked: [], problems };
  return { checked: checked.map((item, index) => ({ ...item, quantityRule: rules[index] ?? null })), problems };
}
