import type { StoresTable, ApiKeysTable, StaffAccountsTable, StaffSessionsTable, ServerSecretsTable, IdempotencyRecordsTable } from './tables/store-tables.js';
import type { CategoriesTable, ProductsTable, ProductVariationsTable, ProductCategoriesTable, SkusTable } from './tables/catalog-tables.js';
import type { CustomersTable, CustomerGroupsTable, CustomerPriceListsTable, CustomerGroupPriceListsTable } from './tables/customer-tables.js';
import type { TradePricesTable, PriceListsTable, PriceListPricesTable } from './tables/price-tables.js';
import type { ImportsTable, ImportFileChunksTable, ImportRowsTable, ImportChangesTable } from './tables/import-tables.js';
import type { OrdersTable, OrderLinesTable } from './tables/order-tables.js';
import type { WebhooksTable, EventsTable, WebhookDeliveriesTable } from './tables/webhook-tables.js';
import type {
  PriceHistoryTable,
  PriceHistoryHeadsTable,
  PriceHistoryCheckpointsTable,
  TradePricesDeletedTable,
  PriceListPricesDeletedTable,
} from './tables/history-tables.js';
import type { ChangeSetsTable, ChangeSetOperationsTable } from './tables/change-set-tables.js';

/**
 * Row types of every table. Booleans are stored as 0/1 and prices as integer ten-thousandths
 * on both engines, so the repositories read the same values whichever engine answers.
 */
export interface Tables {
  stores: StoresTable;
  api_keys: ApiKeysTable;
  customers: CustomersTable;
  categories: CategoriesTable;
  products: ProductsTable;
  product_variations: ProductVariationsTable;
  product_categories: ProductCategoriesTable;
  skus: SkusTable;
  trade_prices: TradePricesTable;
  price_lists: PriceListsTable;
  price_list_prices: PriceListPricesTable;
  customer_price_lists: CustomerPriceListsTable;
  customer_groups: CustomerGroupsTable;
  customer_group_price_lists: CustomerGroupPriceListsTable;
  imports: ImportsTable;
  import_file_chunks: ImportFileChunksTable;
  import_rows: ImportRowsTable;
  import_changes: ImportChangesTable;
  idempotency_records: IdempotencyRecordsTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  webhooks: WebhooksTable;
  events: EventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  price_history: PriceHistoryTable;
  price_history_heads: PriceHistoryHeadsTable;
  price_history_checkpoints: PriceHistoryCheckpointsTable;
  trade_prices_deleted: TradePricesDeletedTable;
  price_list_prices_deleted: PriceListPricesDeletedTable;
  change_sets: ChangeSetsTable;
  change_set_operations: ChangeSetOperationsTable;
  staff_accounts: StaffAccountsTable;
  staff_sessions: StaffSessionsTable;
  server_secrets: ServerSecretsTable;
}
