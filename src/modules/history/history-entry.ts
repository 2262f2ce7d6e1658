/**
 * Who made a change, as a price history records it: a credential (its id, and its name or,
 * unnamed, its public key) or a staff member.
 */
export interface Actor {
  type: 'key' | 'staff';
  id: number;
  name: string;
}

/** What a history entry is about. */
export type HistoryResource = 'trade_price' | 'price_list_entry' | 'price_list' | 'customer' | 'customer_group' | 'product' | 'variation' | 'change_set';

export type HistoryChange = 'created' | 'updated' | 'deleted';

/** How a change came: a request with a key (`api`), the admin page (`admin`), an import or a change set (with its id). */
export type ChangeSource = 'api' | 'admin' | 'import' | 'changeset';

/** Who made a change and how: every write that a history records carries one. */
export interface ChangeOrigin {
  actor: Actor;
  source: ChangeSource;
  /** The import's or change set's id; null for `api` and `admin`. */
  sourceId: number | null;
  /** The id of the request that made the change (an import's: the upload's); null when none did (the CLI). */
  requestId: string | null;
}

/** One change, as the writer that made it describes it. */
export interface HistoryRecord {
  resource: HistoryResource;
  resourceId: number;
  change: HistoryChange;
  /** The record as the API showed it before the change and after it; null when there was none. */
  before: object | null;
  after: object | null;
  /** What the history's filters find it by: the customer, product, list and SKU it concerns, where it has one. */
  customerId: number | null;
  productId: number | null;
  priceListId: number | null;
  sku: string | null;
}

/** An entry as stored: a record with its moment, origin and place in the store's chain. */
export interface HistoryEntry {
  id: number;
  storeId: number;
  seq: number;
  at: string;
  resource: HistoryResource;
  resourceId: number;
  change: HistoryChange;
  /** `before` and `after` as stored: canonical JSON text (what the hash covers), or null. */
  before: string | null;
  after: string | null;
  customerId: number | null;
  productId: number | null;
  priceListId: number | null;
  sku: string | null;
  actor: Actor;
  source: ChangeSource;
  sourceId: number | null;
  requestId: string | null;
  prevHash: string;
  hash: string;
}
