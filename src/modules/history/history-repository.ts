import type { ChangeOrigin, HistoryRecord } from './history-entry.js';

/**
 * The price history's storage. Append-only: nothing here changes or removes an entry (a
 * retention cut, later, removes whole old stretches and leaves a signed checkpoint).
 */
export interface HistoryRepository {
  /**
   * Takes the store's chain lock until the transaction ends (on an engine that locks rows;
   * SQLite's write transaction already holds the database). Every transaction that will
   * append takes it before its first write, so price writers queue on it in one order and
   * never wait on each other's row locks while holding it.
   */
  lockChain(storeId: number): Promise<void>;
  /** Appends the records, in order, at the store's chain head: each gets the next `seq` and its `hash`. */
  append(storeId: number, at: string, origin: ChangeOrigin, records: readonly HistoryRecord[]): Promise<void>;
}
