/**
 * Types of the staff session and the price history, written by hand until their schemas are in
 * src/contract/ and api-types.ts is generated with them (then this file goes).
 */
export type StaffRole = 'viewer' | 'editor' | 'approver' | 'owner';

export type SignInInput = { email: string; password: string };

export type PasswordChangeInput = { currentPassword: string; newPassword: string };

export type StaffMember = {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  storeId: number;
  mustChangePassword: boolean;
  createdAt: string;
};

export type PriceHistoryListQuery = PriceHistoryCountQuery & {
  count?: number;
  offset?: number;
  fields?: string;
};

export type PriceHistoryCountQuery = {
  customerId?: number;
  productId?: number;
  priceListId?: number;
  sku?: string;
  actorType?: 'key' | 'staff';
  actorId?: number;
  resource?: 'trade_price' | 'price_list_entry' | 'price_list' | 'customer' | 'product' | 'variation';
  from?: string;
  until?: string;
};

export type PriceHistoryEntry = {
  id: number;
  at: string;
  resource: 'trade_price' | 'price_list_entry' | 'price_list' | 'customer' | 'product' | 'variation';
  resourceId: number;
  change: 'created' | 'updated' | 'deleted';
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  actor: { type: 'key' | 'staff'; id: number; name: string };
  source: 'api' | 'admin' | 'import' | 'changeset';
  sourceId: number | null;
  requestId: string | null;
  hash: string;
  prevHash: string;
};
