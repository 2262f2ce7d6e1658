import type { StoreTables } from './tables/store-tables.js';
import type { CatalogTables } from './tables/catalog-tables.js';
import type { CustomerTables } from './tables/customer-tables.js';
import type { PriceTables } from './tables/price-tables.js';
import type { ImportTables } from './tables/import-tables.js';
import type { OrderTables } from './tables/order-tables.js';
import type { WebhookTables } from './tables/webhook-tables.js';
import type { HistoryTables } from './tables/history-tables.js';
import type { ChangeSetTables } from './tables/change-set-tables.js';

/**
 * Row types of every table. Booleans are stored as 0/1 and prices as integer ten-thousandths
 * on both engines, so the repositories read the same values whichever engine answers.
 *
 * Each area's file of `tables/` lists its own tables; a new table is added there only.
 */
export interface Tables
  extends StoreTables, CatalogTables, CustomerTables, PriceTables, ImportTables, OrderTables, WebhookTables, HistoryTables, ChangeSetTables {}
