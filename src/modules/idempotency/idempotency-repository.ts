/** The first response to a key, replayed to its repeats. */
export interface StoredResponse {
  fingerprint: string;
  statusCode: number;
  body: string;
}

/** Whose key: the store and the credential that sent it. */
export interface KeyOwner {
  storeId: number;
  /** The credential's id, or a staff member's id negated (`Principal.idempotencyOwnerId`). */
  keyId: number;
}

/** The record a create made, when it made one: its answer is dropped with it. */
export interface CreatedRecord {
  path: string;
  id: number;
}

export interface IdempotencyRepository {
  /** The key's record unless it has expired (`now` in ms since the epoch). */
  find(owner: KeyOwner, key: string, now: number): Promise<StoredResponse | undefined>;
  /**
   * Claims the key inside the current transaction: throws UniqueViolation('idempotency_key')
   * when another request holds or completed it. An expired record of the key is replaced.
   */
  claim(owner: KeyOwner, key: string, fingerprint: string, createdAt: string, expiresAt: number, now: number): Promise<void>;
  /** Records the response of the claimed key, and the record it created. */
  complete(owner: KeyOwner, key: string, statusCode: number, body: string, created: CreatedRecord | undefined): Promise<void>;
  /** Drops the stored answers that created this record (of any credential of the store). */
  forgetRecord(storeId: number, created: CreatedRecord): Promise<void>;
  /**
   * Drops the `limit` keys that expired first (a few more when several expired in the same
   * millisecond as the last of them); returns how many.
   */
  deleteExpired(now: number, limit: number): Promise<number>;
}
