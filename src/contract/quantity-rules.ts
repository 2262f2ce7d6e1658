import { Type, type Static } from '@sinclair/typebox';
import { MAX_LINE_QUANTITY, Nullable, StrictObject } from './common.js';

/**
 * How many units of a SKU a line may order (docs/pricing.md, "Quantity rules"): at least
 * `minimum`, at most `maximum` (null: no most), in multiples of `increment` (a case pack).
 * `minimum` and `maximum` are multiples of `increment`, as Shopify B2B asks.
 */
const Units = (description: string, extra: { default?: number } = {}) => Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY, description, ...extra });

export const QuantityRuleInput = StrictObject(
  {
    minimum: Type.Optional(Units('The fewest units a line may order; left out: the increment (1 unless set)')),
    maximum: Type.Optional(Nullable(Units('The most units a line may order; null or left out: no most'))),
    increment: Type.Optional(Units('A line orders a multiple of this (a case pack); default 1', { default: 1 })),
  },
  { title: 'QuantityRuleInput', description: 'Null removes the rule' },
);
export type QuantityRuleInput = Static<typeof QuantityRuleInput>;

export const QuantityRule = Type.Object(
  {
    minimum: Units('The fewest units a line may order'),
    maximum: Nullable(Units('The most units a line may order; null: no most')),
    increment: Units('A line orders a multiple of this'),
  },
  { title: 'QuantityRule', additionalProperties: false, description: 'How many units a line may order' },
);
export type QuantityRule = Static<typeof QuantityRule>;
