import type { Kysely, Migration } from 'kysely';

/**
 * A price list's policy (docs/pricing.md, "Lowest-price lists"): `first`, the customer's lists
 * taking turns in order as before, or `lowest`, a list that stands aside from that walk and is
 * paid when it is lower than what the walk picks. Every list made before is `first`.
 */
export function priceListPolicySchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('price_lists')
        .addColumn('policy', 'text', (c) => c.notNull().defaultTo('first'))
        .execute();
    },
  };
}
