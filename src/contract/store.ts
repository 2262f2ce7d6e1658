import { Type, type Static } from '@sinclair/typebox';
import { FieldsQuery, Id, Timestamp } from './common.js';
import { ROUNDING_MODES } from './price-lists.js';

/** The store a credential belongs to: its name and the currency every amount of it is in. */
export const StoreResource = Type.Object(
  {
    id: Id,
    name: Type.String(),
    currency: Type.String({ description: 'ISO 4217: the currency of every price and amount of the store (docs/pricing.md, "Rounding")', examples: ['GBP'] }),
    rounding: Type.Unsafe<(typeof ROUNDING_MODES)[number]>({
      type: 'string',
      enum: [...ROUNDING_MODES],
      description: "How the prices the server computes (a percentage list's) round to the currency's minor unit, unless a list rounds its own way",
    }),
    requireApproval: Type.Boolean({
      description:
        'Whether price changes need an approval by someone who did not write them: then they are made in change sets, and a direct write of prices is refused (403, code 18) without `trade_prices:direct` (docs/change-sets.md, "Approval"). Set by `pricebook stores set-approval`',
    }),
    createdAt: Timestamp,
  },
  { title: 'Store', $id: 'Store', additionalProperties: false },
);
export type StoreResource = Static<typeof StoreResource>;

export const StoreGetQuery = Type.Object({ ...FieldsQuery }, { additionalProperties: false });
