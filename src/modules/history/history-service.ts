import type { PriceHistoryEntry, PriceHistoryHead } from '../../contract/price-history.js';
import type { Page } from '../shared/page.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { GENESIS_HASH } from './history-chain.js';
import type { HistoryEntry } from './history-entry.js';
import type { HistoryFilter } from './history-repository.js';

/** What a customer's record holds about a person: shown in the history only to a credential that reads customers. */
export const CUSTOMER_PERSONAL_FIELDS = ['email', 'firstName', 'lastName', 'companyName'] as const;

export interface HistoryReader {
  /** Whether the caller may see customers' personal fields (it has `catalog:read`). */
  personal: boolean;
}

/** `GET /v1/price-history`: the store's price history, newest first, as the API shows an entry. */
export class HistoryService {
  constructor(private readonly uow: UnitOfWork) {}

  async list(storeId: number, filter: HistoryFilter, page: Page, reader: HistoryReader): Promise<PriceHistoryEntry[]> {
    const entries = await this.uow.repos.history.list(storeId, filter, page);
    return entries.map((entry) => shown(entry, reader));
  }

  count(storeId: number, filter: HistoryFilter): Promise<number> {
    return this.uow.repos.history.count(storeId, filter);
  }

  /**
   * The store's last entry, as an anchor to keep elsewhere: its seq, hash and moment (after a
   * retention cut that left no later entry, the checkpoint's; with no history, seq 0).
   */
  async head(storeId: number): Promise<PriceHistoryHead> {
    const { history } = this.uow.repos;
    const [newest] = await history.list(storeId, {}, { count: 1, offset: 0 });
    if (newest !== undefined) return { seq: newest.seq, hash: newest.hash, at: newest.at };
    const checkpoint = await history.checkpoint(storeId);
    if (checkpoint !== undefined) return { seq: checkpoint.seq, hash: checkpoint.hash, at: checkpoint.lastCutAt };
    return { seq: 0, hash: GENESIS_HASH, at: null };
  }
}

/** An entry as the API answers it: its seq as `id`, `before` and `after` parsed, personal fields left out unless the reader may see them. */
export function shown(entry: HistoryEntry, reader: HistoryReader): PriceHistoryEntry {
  const hidePersonal = entry.resource === 'customer' && !reader.personal;
  return {
    id: entry.seq,
    at: entry.at,
    resource: entry.resource,
    resourceId: entry.resourceId,
    change: entry.change,
    before: recordOf(entry.before, hidePersonal),
    after: recordOf(entry.after, hidePersonal),
    actor: { type: entry.actor.type, id: entry.actor.id, name: entry.actor.name },
    source: entry.source,
    sourceId: entry.sourceId,
    requestId: entry.requestId,
    hash: entry.hash,
    prevHash: entry.prevHash,
  };
}

function recordOf(text: string | null, hidePersonal: boolean): Record<string, unknown> | null {
  if (text === null) return null;
  const record = JSON.parse(text) as Record<string, unknown>;
  if (!hidePersonal) return record;
  const personal = new Set<string>(CUSTOMER_PERSONAL_FIELDS);
  return Object.fromEntries(Object.entries(record).filter(([field]) => !personal.has(field)));
}
