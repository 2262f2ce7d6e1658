import type { Scope } from './scopes.js';

export interface Store {
  id: number;
  name: string;
  createdAt: string;
}

export interface ApiKey {
  id: number;
  storeId: number;
  key: string;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
}

/** An api key row with the hash it is checked against. */
export interface StoredApiKey extends ApiKey {
  secretHash: string;
}

export interface StoreRepository {
  insert(name: string, createdAt: string): Promise<Store>;
  find(id: number): Promise<Store | undefined>;
  /** Whether any store exists: an empty database gets the demo store. */
  any(): Promise<boolean>;
}

export interface ApiKeyRepository {
  insert(key: Omit<StoredApiKey, 'id' | 'revokedAt'>): Promise<ApiKey>;
  /** The credential with that public key, revoked or not. */
  findByKey(key: string): Promise<StoredApiKey | undefined>;
  /** Marks it revoked; false when there is no such credential. */
  revoke(id: number, revokedAt: string): Promise<boolean>;
}
