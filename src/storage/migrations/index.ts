import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Engine } from '../engine.js';
import { coreSchema } from './001-core.js';
import { tradePricesSchema } from './003-trade-prices.js';
import { ordersSchema } from './004-orders.js';
import { webhooksSchema } from './005-webhooks.js';
import { idempotencyPerCredentialSchema } from './006-idempotency-per-credential.js';
import { customerPageIndexSchema } from './007-customer-page-index.js';
import { priceRulesSchema } from './008-price-rules.js';
import { importsSchema } from './009-imports.js';
import { customerSkuRulesIndexSchema } from './010-customer-sku-rules-index.js';
import { pricesOfLostSkusSchema } from './011-prices-of-lost-skus.js';
import { ownerRulesIndexesSchema } from './012-owner-rules-indexes.js';
import { importFileChunksSchema } from './013-import-file-chunks.js';
import { apiKeyNamesSchema } from './014-api-key-names.js';
import { priceHistorySchema } from './015-price-history.js';
import { staffSchema } from './016-staff.js';
import { importOriginSchema } from './017-import-origin.js';
import { historyCheckpointsSchema } from './018-history-checkpoints.js';
import { changeSetsSchema } from './020-change-sets.js';
import { priceListPolicySchema } from './021-price-list-policy.js';
import { currencyRoundingSchema } from './022-currency-rounding.js';
import { customerGroupsSchema } from './023-customer-groups.js';
import { quantityRulesSchema } from './024-quantity-rules.js';
import { entryQuantityRulesSchema } from './025-entry-quantity-rules.js';
import { orderCurrencySchema } from './026-order-currency.js';
import { customerGroupPolicySchema } from './027-customer-group-policy.js';
import { importFileNameSchema } from './028-import-file-name.js';
import { importChangesSchema } from './029-import-changes.js';
import { deletedRecordIdsSchema } from './030-deleted-record-ids.js';
import { signInGenerationSchema } from './031-sign-in-generation.js';
import { changeSetBoundsSchema } from './032-change-set-bounds.js';
import { asOfReadsSchema } from './019-as-of-reads.js';

/** Every migration in order; each is written once for both engines, using the engine flags. */
export const MIGRATIONS: ReadonlyArray<readonly [string, (engine: Engine) => Migration]> = [
  ['001-core', coreSchema],
  ['003-trade-prices', tradePricesSchema],
  ['004-orders', ordersSchema],
  ['005-webhooks', webhooksSchema],
  ['006-idempotency-per-credential', idempotencyPerCredentialSchema],
  ['007-customer-page-index', customerPageIndexSchema],
  ['008-price-rules', priceRulesSchema],
  ['009-imports', importsSchema],
  ['010-customer-sku-rules-index', customerSkuRulesIndexSchema],
  ['011-prices-of-lost-skus', pricesOfLostSkusSchema],
  ['012-owner-rules-indexes', ownerRulesIndexesSchema],
  ['013-import-file-chunks', importFileChunksSchema],
  ['014-api-key-names', apiKeyNamesSchema],
  ['015-price-history', priceHistorySchema],
  ['016-staff', staffSchema],
  ['017-import-origin', importOriginSchema],
  ['018-history-checkpoints', historyCheckpointsSchema],
  ['019-as-of-reads', asOfReadsSchema],
  ['020-change-sets', changeSetsSchema],
  ['021-price-list-policy', priceListPolicySchema],
  ['022-currency-rounding', currencyRoundingSchema],
  ['023-customer-groups', customerGroupsSchema],
  ['024-quantity-rules', quantityRulesSchema],
  ['025-entry-quantity-rules', entryQuantityRulesSchema],
  ['026-order-currency', orderCurrencySchema],
  ['027-customer-group-policy', customerGroupPolicySchema],
  ['028-import-file-name', importFileNameSchema],
  ['029-import-changes', importChangesSchema],
  ['030-deleted-record-ids', deletedRecordIdsSchema],
  ['031-sign-in-generation', signInGenerationSchema],
  ['032-change-set-bounds', changeSetBoundsSchema],
];

/**
 * Applies pending migrations (`migrations`, all of them unless a test stops at an earlier
 * schema). Kysely's migrator takes a lock, so instances starting together on one PostgreSQL
 * apply each migration once.
 */
export async function migrateToLatest(db: Kysely<unknown>, engine: Engine, migrations: typeof MIGRATIONS = MIGRATIONS): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: () => Promise.resolve(Object.fromEntries(migrations.map(([name, build]) => [name, build(engine)]))),
  };
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
}
