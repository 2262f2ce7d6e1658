/** The first response to a key, replayed to its repeats. */
export interface StoredResponse {
  fingerprint: string;
  statusCode: number;
  body: string;
}

export interface IdempotencyRepository {
  /** The key's record unless it has expired (`now` in ms since the epoch). */
  find(storeId: number, key: string, now: number): Promise<StoredResponse | undefined>;
  /**
   * Claims the key inside the current transaction: throws UniqueViolation('idempotency_key')
   * when another request holds or completed it. An expired record of the key is replaced.
   */
  claim(storeId: number, key: string, fingerprint: string, createdAt: string, expiresAt: number, now: number): Promise<void>;
  /** Records the response of the claimed key. */
  complete(storeId: number, key: string, statusCode: number, body: string): Promise<void>;
  /** Drops expired keys; returns how many. */
  deleteExpired(now: number): Promise<number>;
}
