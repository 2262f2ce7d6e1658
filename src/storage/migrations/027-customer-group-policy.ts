import type { Kysely, Migration } from 'kysely';

/**
 * A customer group's policy (docs/pricing.md, "Customer groups"): `first`, its lists apply by
 * their own policies after the customer's own; `lowest`, every list of the group is a
 * lowest-price list for its customers. Every group made before is `first`, as it priced then.
 */
export function customerGroupPolicySchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('customer_groups')
        .addColumn('policy', 'text', (column) => column.notNull().defaultTo('first'))
        .execute();
    },
  };
}
