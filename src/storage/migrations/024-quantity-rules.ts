import type { Kysely, Migration } from 'kysely';

/**
 * Quantity rules (docs/pricing.md, "Quantity rules"): a product's or variation's fewest and most
 * units a line may order and its case pack, three integers all null when it has no rule. Every
 * product and variation made before has none.
 */
export function quantityRulesSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['products', 'product_variations']) {
        await db.schema.alterTable(table).addColumn('quantity_minimum', 'integer').execute();
        await db.schema.alterTable(table).addColumn('quantity_maximum', 'integer').execute();
        await db.schema.alterTable(table).addColumn('quantity_increment', 'integer').execute();
      }
    },
  };
}
