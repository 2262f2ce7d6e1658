import type { Kysely, Migration } from 'kysely';

/**
 * A price list entry's own quantity rule (docs/pricing.md, "Quantity rules"), over its SKU's:
 * three integers, all null when it has none, as on products. The deleted entries keep theirs,
 * so a quote at a past moment checks the rule of the entry that priced it then. Every entry
 * made before has none.
 */
export function entryQuantityRulesSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['price_list_prices', 'price_list_prices_deleted']) {
        await db.schema.alterTable(table).addColumn('quantity_minimum', 'integer').execute();
        await db.schema.alterTable(table).addColumn('quantity_maximum', 'integer').execute();
        await db.schema.alterTable(table).addColumn('quantity_increment', 'integer').execute();
      }
    },
  };
}
