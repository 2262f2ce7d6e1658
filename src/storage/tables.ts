import type { Generated } from 'kysely';

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
}

export interface StoresTable {
  id: Generated<number>;
  name: string;
  created_at: string;
  /** 1: a change set is applied only once approved by someone who did not write it (migration 020). */
  require_approval: Generated<number>;
  /** ISO 4217 (migration 022). */
  currency: Generated<string>;
  /** How computed prices round to the currency: half-up, up or down (migration 022). */
  rounding_mode: Generated<string>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  store_id: number;
  /** Public half of the credential, the Basic user name. */
  key: string;
  /** SHA-256 of the secret, hex. */
  secret_hash: string;
  /** Comma-separated scope names. */
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  /** Chosen by whoever created the credential, to tell it apart; not unique; null: none. */
  name: string | null;
}

export interface CustomersTable {
  id: Generated<number>;
  store_id: number;
  email: string;
  /** Lower-cased email: uniqueness in a store ignores case. */
  email_key: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  trade: number;
  active: number;
  /** At most one group; null: none. */
  customer_group_id: number | null;
  created_at: string;
}

export interface CategoriesTable {
  id: Generated<number>;
  store_id: number;
  title: string;
  parent_id: number | null;
  created_at: string;
}

export interface ProductsTable {
  id: Generated<number>;
  store_id: number;
  title: string;
  sku: string | null;
  /** Ten-thousandths of the currency unit. */
  price: number;
  active: number;
  /** The quantity rule (docs/pricing.md), all three null when none. */
  quantity_minimum: number | null;
  quantity_maximum: number | null;
  quantity_increment: number | null;
  created_at: string;
}

export interface ProductVariationsTable {
  id: Generated<number>;
  store_id: number;
  product_id: number;
  sku: string;
  /** Ten-thousandths; null means the product's price applies. */
  price: number | null;
  stock: number | null;
  /** Its own quantity rule, all three null when none (the product's applies). */
  quantity_minimum: number | null;
  quantity_maximum: number | null;
  quantity_increment: number | null;
  created_at: string;
}

export interface ProductCategoriesTable {
  store_id: number;
  product_id: number;
  category_id: number;
}

/**
 * Every SKU of a store, product or variation: its primary key makes SKUs unique per store
 * across both, so two concurrent writers cannot both claim one.
 */
export interface SkusTable {
  store_id: number;
  sku: string;
  product_id: number;
  variation_id: number | null;
}

/** Trade prices: one customer, one SKU, one price. Never de-duplicated; the newest id wins. */
export interface TradePricesTable {
  id: Generated<number>;
  store_id: number;
  customer_id: number;
  product_id: number;
  sku: string;
  /** Ten-thousandths of the currency unit. */
  price: number;
  /** Applies to lines of at least this many units. */
  min_quantity: Generated<number>;
  /** Canonical ISO 8601 UTC (see `modules/timestamps.ts`); null: no bound. */
  valid_from: string | null;
  valid_until: string | null;
  created_at: string;
}

/** A price list shared by customers: fixed (entries per SKU) or a percentage off the catalog. */
export interface PriceListsTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  /** `fixed` or `percentage`. */
  kind: string;
  /** Ten-thousandths of a percent; null for a fixed list. */
  percentage: number | null;
  /** `first` or `lowest` (migration 021). */
  policy: Generated<string>;
  /** A percentage list's own rounding: an increment in ten-thousandths and a mode; both null: the store's (migration 022). */
  rounding_increment: number | null;
  rounding_mode: string | null;
  created_at: string;
}

/** An entry of a fixed price list: shaped like a trade price, without the customer. */
export interface PriceListPricesTable {
  id: Generated<number>;
  store_id: number;
  price_list_id: number;
  product_id: number;
  sku: string;
  /** Ten-thousandths of the currency unit. */
  price: number;
  min_quantity: number;
  valid_from: string | null;
  valid_until: string | null;
  /** The entry's own quantity rule, all three null when none (the SKU's applies; migration 025). */
  quantity_minimum: number | null;
  quantity_maximum: number | null;
  quantity_increment: number | null;
  created_at: string;
}

/** A customer's price lists in order: position 0 wins over 1, and so on. */
export interface CustomerPriceListsTable {
  store_id: number;
  customer_id: number;
  position: number;
  price_list_id: number;
}

export interface CustomerGroupsTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  /** `first` or `lowest`: how the group's lists apply to its customers (migration 027). */
  policy: Generated<string>;
  created_at: string;
}

/** A group's lists, position 0 first, as a customer's own. */
export interface CustomerGroupPriceListsTable {
  store_id: number;
  customer_group_id: number;
  position: number;
  price_list_id: number;
}

/** A CSV import of trade prices. */
export interface ImportsTable {
  id: Generated<number>;
  store_id: number;
  /**
   * `queued`, `running`, `succeeded` or `failed`; never answered: `uploading` while its file
   * arrives, `discarded` when the upload was refused or abandoned (deleted with its slices).
   */
  status: string;
  /** `add` or `replace`. */
  mode: string;
  dry_run: number;
  /** The change set the rows go into as operations (migration 020); null: applied to the book. */
  change_set_id: Generated<number | null>;
  /** `long` or `matrix`, once the header is read. */
  format: string | null;
  /** Data rows of the file, once counted. */
  rows: number | null;
  processed: Generated<number>;
  /** JSON array of at most 1000 `{row, field, message}`. */
  errors: Generated<string>;
  error_count: Generated<number>;
  /** JSON `{created, deleted, unchanged}`, once succeeded. */
  result: string | null;
  created_at: string;
  finished_at: string | null;
  /** Milliseconds since the epoch; while in the future, one process owns the running import. */
  lease_until: number | null;
  lease_token: string | null;
  attempts: Generated<number>;
  /** Bytes of the file (while it is stored, they count against the store's queued bytes). */
  file_bytes: Generated<number>;
  /** Milliseconds since the epoch of the last claim: claims go to the store served least recently. */
  claimed_at: number | null;
  /** 1 while slices or staged rows of the ended (or discarded) import are still to be deleted. */
  cleanup: Generated<number>;
  /** Who uploaded it (migration 017): its apply's history entries name them. Null on imports uploaded before. */
  actor_type: string | null;
  actor_id: number | null;
  actor_name: string | null;
  /** The upload's request id, for the same entries. */
  request_id: string | null;
  /** The file's name as the uploader gave it (migration 028); null when none was. */
  file_name: string | null;
}

/** An import's file, in slices of 256 KiB, kept until the import ends. */
export interface ImportFileChunksTable {
  import_id: number;
  store_id: number;
  /** Order of the slice in the file, from 0. */
  seq: number;
  data: Buffer;
}

/** A price an import checked, staged until the import applies them all at once. */
/** A dry run's change of one price (migration 029). */
export interface ImportChangesTable {
  import_id: number;
  store_id: number;
  seq: number;
  kind: string;
  customer_id: number;
  sku: string;
  min_quantity: number;
  valid_from: string | null;
  valid_until: string | null;
  /** Ten-thousandths. */
  price_before: number | null;
  price_after: number | null;
  trade_price_id: number | null;
}

export interface ImportRowsTable {
  import_id: number;
  store_id: number;
  /** The order of the prices in the file. */
  position: number;
  customer_id: number;
  product_id: number;
  sku: string;
  /** Ten-thousandths. */
  price: number;
  min_quantity: number;
  valid_from: string | null;
  valid_until: string | null;
}

/**
 * A claimed `Idempotency-Key`: inserted first in the transaction of the create it guards and
 * completed with the response in that same transaction, so a key never outlives its records
 * and records never lack their key.
 */
export interface IdempotencyRecordsTable {
  store_id: number;
  /** The credential that sent the key; 0 for records kept from before keys were per credential. */
  key_id: number;
  key: string;
  /** SHA-256 of method, path and the raw body bytes. */
  fingerprint: string;
  status_code: number;
  /** The response body exactly as first sent. */
  response_body: string;
  created_at: string;
  /** Milliseconds since the epoch; past it the key may be used again. */
  expires_at: number;
  /** The path and id of the record the answer created (a single-record create); dropped with it. */
  path: string | null;
  record_id: number | null;
}

/**
 * A placed order. Customer, product and variation ids are a record of what was ordered, not
 * references: the order outlives later changes to them.
 */
export interface OrdersTable {
  id: Generated<number>;
  store_id: number;
  customer_id: number;
  status: string;
  /** The store's currency (ISO 4217) when it was placed (migration 026). */
  currency: Generated<string>;
  /** Ten-thousandths of the currency unit; below 10^15. */
  total: number;
  created_at: string;
}

/** The lines of an order, priced when it was placed. */
export interface OrderLinesTable {
  store_id: number;
  order_id: number;
  /** Position in the request, from 0. */
  line_no: number;
  sku: string;
  quantity: number;
  product_id: number;
  variation_id: number | null;
  /** Ten-thousandths. */
  unit_price: number;
  /** Ten-thousandths; unit_price × quantity, below 10^15. */
  line_total: number;
  /** `trade`, `price_list`, `variation` or `product`; null for lines placed before sources were kept. */
  source: string | null;
  trade_price_id: number | null;
  price_list_id: number | null;
  price_list_price_id: number | null;
}

/** A webhook subscription. The secret is kept readable (not hashed): every delivery is signed with it. */
export interface WebhooksTable {
  id: Generated<number>;
  store_id: number;
  topic: string;
  url: string;
  /** `whsec_` + base64 of the HMAC key. */
  secret: string;
  active: number;
  verified: number;
  /** Failed attempts since the last success (or re-activation). */
  failure_count: Generated<number>;
  /** Milliseconds since the epoch of the last successful delivery. */
  last_success_at: number | null;
  created_at: string;
}

/** The outbox: one row per change, written in the change's own transaction. */
export interface EventsTable {
  id: Generated<number>;
  store_id: number;
  topic: string;
  subject_id: number;
  /** The record as the API returns it, JSON. */
  data: string;
  /** An update's record as it was before, JSON (migration 017); null for other events. */
  previous: string | null;
  created_at: string;
  /** 1 once its deliveries have been created. */
  fanned_out: Generated<number>;
}

/** One event for one webhook: attempts, schedule and the lease of the worker sending it. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  store_id: number;
  event_id: number;
  webhook_id: number;
  /** `pending`, `delivered` or `failed` (retries used up, or the webhook was disabled). */
  status: string;
  attempts: number;
  /** Milliseconds since the epoch. */
  next_attempt_at: number;
  /** Milliseconds; while in the future, one worker owns the delivery. */
  lease_until: number | null;
  lease_token: string | null;
  /** HTTP status of the last attempt, if it got one. */
  last_status: number | null;
  last_error: string | null;
  /** Milliseconds since the epoch. */
  created_at: number;
  finished_at: number | null;
}

/** One change to what a customer would pay (migration 015; docs/history.md). Append-only. */
export interface PriceHistoryTable {
  id: Generated<number>;
  store_id: number;
  /** The entry's place in its store's chain: 1, 2, 3… without gaps. */
  seq: number;
  at: string;
  /** `trade_price`, `price_list_entry`, `price_list`, `customer`, `product` or `variation`. */
  resource: string;
  resource_id: number;
  /** `created`, `updated` or `deleted`. */
  change: string;
  /** The record before and after the change as the API shows it, JSON; null when there was none. */
  before: string | null;
  after: string | null;
  customer_id: number | null;
  product_id: number | null;
  price_list_id: number | null;
  sku: string | null;
  /** `key` or `staff`. */
  actor_type: string;
  actor_id: number;
  actor_name: string;
  /** `api`, `admin`, `import` or `changeset`; `source_id` the import's or change set's id. */
  source: string;
  source_id: number | null;
  request_id: string | null;
  prev_hash: string;
  hash: string;
}

/** Each store's chain head: its last entry's `seq` and `hash`. Its row lock orders appends. */
export interface PriceHistoryHeadsTable {
  store_id: number;
  seq: number;
  hash: string;
}

/** Where a store's chain starts after a retention cut (migration 018): the last entry cut, signed. */
export interface PriceHistoryCheckpointsTable {
  store_id: number;
  seq: number;
  hash: string;
  /** The `at` of the last entry cut. */
  last_cut_at: string;
  cut_at: string;
  /** HMAC-SHA256 under the history key, hex (modules/history/checkpoint-signature.ts). */
  signature: string;
}

/** A trade price deleted: its row as it was, with when it went. */
export interface TradePricesDeletedTable {
  id: number;
  store_id: number;
  customer_id: number;
  product_id: number;
  sku: string;
  price: number;
  min_quantity: number;
  valid_from: string | null;
  valid_until: string | null;
  created_at: string;
  deleted_at: string;
}

/** A price list entry deleted, with when it went. */
export interface PriceListPricesDeletedTable {
  id: number;
  store_id: number;
  price_list_id: number;
  product_id: number;
  sku: string;
  price: number;
  min_quantity: number;
  valid_from: string | null;
  valid_until: string | null;
  quantity_minimum: number | null;
  quantity_maximum: number | null;
  quantity_increment: number | null;
  created_at: string;
  deleted_at: string;
}

export interface StaffAccountsTable {
  id: Generated<number>;
  store_id: number;
  email: string;
  /** Lower-cased e-mail: unique over the whole server (one account per e-mail). */
  email_key: string;
  display_name: string;
  /** `viewer`, `editor`, `approver` or `owner`. */
  role: string;
  /** Self-describing scrypt hash: `scrypt$ln=15,r=8,p=1$<salt>$<key>` (base64). */
  password_hash: string;
  /** 1 until the member replaces the initial (or reset) password. */
  must_change_password: number;
  created_at: string;
  disabled_at: string | null;
}

export interface StaffSessionsTable {
  id: Generated<number>;
  /** SHA-256 of the session token, hex; the token itself is never stored. */
  token_hash: string;
  staff_id: number;
  store_id: number;
  created_at: string;
  /** Refreshed at most every minute (or tenth of the idle expiry): the idle expiry counts from it. */
  last_seen_at: string;
  ended_at: string | null;
}

/** A store's staged price change (migration 020); actors are JSON `{type, id, name}`. */
export interface ChangeSetsTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  note: string | null;
  /** `draft`, `submitted`, `approved`, `scheduled`, `applied`, `failed`, `rolled_back` or `discarded`. */
  state: string;
  /** Goes up with every change of the operations. */
  revision: number;
  /** The revision an approval was given for; null when none stands. */
  approved_revision: number | null;
  operation_count: number;
  created_by: string;
  /** JSON array of `key:ID` / `staff:ID`: whoever created the set or changed its operations (none of them may approve it). */
  authors: string;
  submitted_by: string | null;
  approved_by: string | null;
  applied_by: string | null;
  apply_at: string | null;
  applied_at: string | null;
  revert_of: number | null;
  reverted_by: number | null;
  /** JSON array of the last failed apply's problems. */
  problems: string;
  /** JSON `{operations, created, deleted, updated}`. */
  counts: string;
  /** JSON: what the apply did, which a revert undoes (modules/change-sets/applied-effects.ts); null until applied. */
  effects: string | null;
  created_at: string;
  updated_at: string;
}

/** A change set's operations, in order from 0. */
export interface ChangeSetOperationsTable {
  change_set_id: number;
  position: number;
  /** The operation as added, JSON. */
  body: string;
}
