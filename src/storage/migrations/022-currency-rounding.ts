import type { Kysely, Migration } from 'kysely';

/**
 * The store's currency and how the prices the server computes round to it (docs/pricing.md,
 * "Rounding"): `stores.currency` (ISO 4217; every store made before is GBP, until set) and
 * `stores.rounding_mode` (half-up, up or down); a percentage list's own rounding, an increment
 * in ten-thousandths and a mode, both null when the list takes the store's.
 */
export function currencyRoundingSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('stores')
        .addColumn('currency', 'text', (c) => c.notNull().defaultTo('GBP'))
        .execute();
      await db.schema
        .alterTable('stores')
        .addColumn('rounding_mode', 'text', (c) => c.notNull().defaultTo('half-up'))
        .execute();
      await db.schema.alterTable('price_lists').addColumn('rounding_increment', 'bigint').execute();
      await db.schema.alterTable('price_lists').addColumn('rounding_mode', 'text').execute();
    },
  };
}
