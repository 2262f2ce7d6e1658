import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/**
 * Customer groups (docs/pricing.md, "Customer groups"): a group has ordered price lists, as a
 * customer does, and a customer belongs to at most one group (`customers.customer_group_id`),
 * whose lists apply after the customer's own. Every customer made before belongs to none.
 */
export function customerGroupsSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('customer_groups'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('customer_groups_store').on('customer_groups').columns(['store_id', 'id']).execute();

      await db.schema
        .createTable('customer_group_price_lists')
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('customer_group_id', ref, (c) => c.notNull().references('customer_groups.id'))
        // From 0, as a customer's own lists.
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('price_list_id', ref, (c) => c.notNull().references('price_lists.id'))
        .addPrimaryKeyConstraint('customer_group_price_lists_pk', ['customer_group_id', 'position'])
        .execute();
      await db.schema.createIndex('customer_group_price_lists_list').on('customer_group_price_lists').columns(['price_list_id', 'customer_group_id']).execute();

      await db.schema
        .alterTable('customers')
        .addColumn('customer_group_id', ref, (c) => c.references('customer_groups.id'))
        .execute();
      // A group's customers, in id order: the `customerGroupId=` filter, and a group's removal in batches.
      await db.schema.createIndex('customers_group').on('customers').columns(['store_id', 'customer_group_id', 'id']).execute();
    },
  };
}
