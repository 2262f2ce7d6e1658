import type { Caller, CreateOptions } from './api-caller.js';
import { type IterateQuery, offsetPages } from './pages.js';
import type {
  ChangeSet,
  ChangeSetInput,
  ChangeSetListQuery,
  ChangeSetOperation,
  ChangeSetPreview,
  ChangeSetPreviewQuery,
  CountResult,
  ListedOperation,
  PageOptions,
} from './types.js';

/**
 * `/v1/change-sets`: price changes staged as one draft, previewed, approved, applied now or at
 * a moment, and taken back by a revert (docs/change-sets.md).
 */
export class ChangeSetsResource {
  constructor(private readonly api: Caller) {}

  list(query: ChangeSetListQuery = {}): Promise<ChangeSet[]> {
    return this.api.call('changeSets.list', { query });
  }
  /** Every set the query finds, by id, page by page. */
  iterate(query: IterateQuery<ChangeSetListQuery> = {}): AsyncGenerator<ChangeSet, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: Pick<ChangeSetListQuery, 'state'> = {}): Promise<number> {
    return (await this.api.call<CountResult>('changeSets.count', { query })).count;
  }
  get(id: number): Promise<ChangeSet> {
    return this.api.call('changeSets.get', { params: { id } });
  }
  /** A new, empty draft. */
  create(changeSet: ChangeSetInput, options: CreateOptions = {}): Promise<ChangeSet> {
    return this.api.call('changeSets.create', { body: changeSet, ...options });
  }
  /** Adds 1–1000 operations after those the set holds, all or none; the set goes back to draft. */
  addOperations(id: number, operations: readonly ChangeSetOperation[], options: CreateOptions = {}): Promise<ChangeSet> {
    return this.api.call('changeSets.addOperations', { params: { id }, body: operations, ...options });
  }
  operations(id: number, query: PageOptions = {}): Promise<ListedOperation[]> {
    return this.api.call('changeSets.operations', { params: { id }, query });
  }
  /** What applying would do at `at` (default: the scheduled moment, or now): records, then prices before → after, a page of rows. */
  preview(id: number, query: Omit<ChangeSetPreviewQuery, 'format'> = {}): Promise<ChangeSetPreview> {
    return this.api.call('changeSets.preview', { params: { id }, query });
  }
  submit(id: number): Promise<ChangeSet> {
    return this.api.call('changeSets.submit', { params: { id }, body: {} });
  }
  /** Needs `trade_prices:approve`; where the store requires approval, not by the set's writers. */
  approve(id: number): Promise<ChangeSet> {
    return this.api.call('changeSets.approve', { params: { id }, body: {} });
  }
  /** Applies now, in one transaction, or (`at` in the future) schedules the set for then. */
  apply(id: number, at?: string): Promise<ChangeSet> {
    return this.api.call('changeSets.apply', { params: { id }, body: at === undefined ? {} : { at } });
  }
  discard(id: number): Promise<ChangeSet> {
    return this.api.call('changeSets.discard', { params: { id }, body: {} });
  }
  /** A new draft that takes an applied set back exactly. */
  revert(id: number, options: CreateOptions = {}): Promise<ChangeSet> {
    return this.api.call('changeSets.revert', { params: { id }, body: {}, ...options });
  }
}
