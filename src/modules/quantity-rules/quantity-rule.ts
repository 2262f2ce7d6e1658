import type { QuantityRule, QuantityRuleInput } from '../../contract/quantity-rules.js';
import type { FieldProblem } from '../../contract/errors.js';

/**
 * A quantity rule as sent, made whole: a minimum left out is the increment (the smallest
 * quantity the increment allows), a maximum left out is none.
 */
export function completeRule(input: QuantityRuleInput): QuantityRule {
  const increment = input.increment ?? 1;
  return { minimum: input.minimum ?? increment, maximum: input.maximum ?? null, increment };
}

/** A rule as a create sends it: null or left out is none. */
export function ruleOfInput(input: QuantityRuleInput | null | undefined): QuantityRule | null {
  return input === undefined || input === null ? null : completeRule(input);
}

/** A rule as an update sends it: left out (undefined) keeps the one there, null removes it. */
export function ruleOfPatch(input: QuantityRuleInput | null | undefined): QuantityRule | null | undefined {
  return input === undefined ? undefined : ruleOfInput(input);
}

/**
 * What is wrong with a rule, each problem at `field` (`quantityRule`, or an item's): a minimum
 * or maximum that is not a multiple of the increment (no line could order exactly it), a
 * maximum below the minimum (no line could order anything).
 */
export function ruleProblems(rule: QuantityRule, field: string, index?: number): FieldProblem[] {
  const at = (name: string, message: string): FieldProblem => ({ ...(index !== undefined && { index }), field: `${field}.${name}`, message });
  const problems: FieldProblem[] = [];
  if (rule.minimum % rule.increment !== 0) problems.push(at('minimum', `must be a multiple of the increment (${rule.increment})`));
  if (rule.maximum !== null && rule.maximum % rule.increment !== 0) problems.push(at('maximum', `must be a multiple of the increment (${rule.increment})`));
  if (rule.maximum !== null && rule.maximum < rule.minimum) problems.push(at('maximum', `must be at least the minimum (${rule.minimum})`));
  return problems;
}

/** Why `quantity` breaks the rule (the first thing it breaks), or undefined when it keeps it. */
export function quantityBreaks(rule: QuantityRule | null, quantity: number): string | undefined {
  if (rule === null) return undefined;
  if (quantity % rule.increment !== 0) return `must be a multiple of ${rule.increment}`;
  if (quantity < rule.minimum) return `must be at least ${rule.minimum}`;
  if (rule.maximum !== null && quantity > rule.maximum) return `must be at most ${rule.maximum}`;
  return undefined;
}

/** The rule stored in three columns (all null: none). */
export interface RuleColumns {
  quantity_minimum: number | null;
  quantity_maximum: number | null;
  quantity_increment: number | null;
}

export function ruleOfColumns(columns: RuleColumns): QuantityRule | null {
  if (columns.quantity_minimum === null || columns.quantity_increment === null) return null;
  return {
    minimum: Number(columns.quantity_minimum),
    maximum: columns.quantity_maximum === null ? null : Number(columns.quantity_maximum),
    increment: Number(columns.quantity_increment),
  };
}

export function columnsOfRule(rule: QuantityRule | null): RuleColumns {
  return rule === null
    ? { quantity_minimum: null, quantity_maximum: null, quantity_increment: null }
    : { quantity_minimum: rule.minimum, quantity_maximum: rule.maximum, quantity_increment: rule.increment };
}

/** Whether two rules (or none) are the same. */
export function sameRule(a: QuantityRule | null, b: QuantityRule | null): boolean {
  if (a === null || b === null) return a === b;
  return a.minimum === b.minimum && a.maximum === b.maximum && a.increment === b.increment;
}
