import type { RoundingMode } from '../currency/rounding.js';
import type { Scope } from './scopes.js';

export interface Store {
  id: number;
  name: string;
  /** ISO 4217: the currency of every price of the store (docs/pricing.md, "Rounding"). */
  currency: string;
  /** How the prices the server computes round to the currency's minor unit. */
  rounding: RoundingMode;
  createdAt: string;
}

/** A store's currency and rounding, as set at creation or changed since. */
export interface StoreMoney {
  currency: string;
  rounding: RoundingMode;
}

export interface ApiKey {
  id: number;
  storeId: number;
  key: string;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
}

/** A credential as `pricebook keys list` shows it: never its secret (only its hash is stored). */
export interface ListedApiKey extends ApiKey {
  name: string | null;
}

/** An api key row with the hash it is checked against. */
export interface StoredApiKey extends ApiKey {
  secretHash: string;
  name: string | null;
}

export interface StoreRepository {
  insert(name: string, money: StoreMoney, createdAt: string): Promise<Store>;
  find(id: number): Promise<Store | undefined>;
  /** Whether any store exists: an empty database gets the demo store. */
  any(): Promise<boolean>;
  /** Up to `limit` stores with ids above `afterId`, ascending. */
  page(afterId: number, limit: number): Promise<Store[]>;
  /** Whether the store's change sets need an approval (docs/change-sets.md); undefined when there is no such store. */
  requiresApproval(id: number): Promise<boolean | undefined>;
  /** False when there is no such store. */
  setRequireApproval(id: number, value: boolean): Promise<boolean>;
  /** The store afterwards; undefined when there is no such store. */
  setMoney(id: number, money: StoreMoney): Promise<Store | undefined>;
}

export interface ApiKeyRepository {
  insert(key: Omit<StoredApiKey, 'id' | 'revokedAt' | 'name'> & { name?: string }): Promise<ApiKey>;
  /** Up to `limit` credentials of a store with ids above `afterId`, ascending, revoked ones too. */
  pageOfStore(storeId: number, afterId: number, limit: number): Promise<ListedApiKey[]>;
  /** Up to `limit` credentials not revoked that carry this name (in one store, or any), ascending. */
  activeNamed(name: string, storeId: number | undefined, limit: number): Promise<ListedApiKey[]>;
  /** The credential with that public key, revoked or not. */
  findByKey(key: string): Promise<StoredApiKey | undefined>;
  /** Marks it revoked; false when there is no such credential. */
  revoke(id: number, revokedAt: string): Promise<boolean>;
}
