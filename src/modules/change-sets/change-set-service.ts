import type { ChangeSet, ChangeSetInput, ChangeSetState, ListedOperation } from '../../contract/change-sets.js';
import type { Clock } from '../shared/clock.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { Page } from '../shared/page.js';
import type { PricingService } from '../pricing/pricing-service.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { OperationServices } from './apply-operations.js';
import { ChangeSetApply } from './change-set-apply.js';
import { ChangeSetDrafting } from './change-set-drafting.js';
import { ChangeSetPreviews, type FullPreview } from './change-set-previews.js';
import { ChangeSetRecorder, findSet, shown } from './change-set-recorder.js';
import { assertOpen } from './change-set-rules.js';

/**
 * Change sets (docs/change-sets.md): a store's price changes staged as operations, previewed
 * against the live book, approved by someone who did not write them (when the store requires
 * it), applied in one transaction now or at a moment, and taken back by a revert. Every step is
 * recorded in the price history with its actor; the operations themselves are carried out by
 * the services that write each kind, so their records get the usual events and history
 * entries, with the set as their source.
 *
 * This is the one face routes, imports and the maintenance loop call: it reads sets itself and
 * hands each step to the collaborator that owns it: `ChangeSetDrafting` (create, add, submit,
 * approve, discard), `ChangeSetPreviews` (the rehearsal of an apply) and `ChangeSetApply`
 * (apply, schedule, revert); `ChangeSetRecorder` writes each step and records it.
 */
export class ChangeSetService {
  private readonly drafting: ChangeSetDrafting;
  private readonly previews: ChangeSetPreviews;
  private readonly applying: ChangeSetApply;

  constructor(
    private readonly uow: UnitOfWork,
    clock: Clock,
    services: OperationServices,
    pricing: PricingService,
  ) {
    const recorder = new ChangeSetRecorder(uow, clock);
    this.drafting = new ChangeSetDrafting(uow, services, recorder);
    this.previews = new ChangeSetPreviews(uow, clock, services, pricing, recorder);
    this.applying = new ChangeSetApply(uow, clock, services, recorder);
  }

  async list(storeId: number, state: ChangeSetState | undefined, page: Page): Promise<ChangeSet[]> {
    return (await this.uow.repos.changeSets.list(storeId, state, page)).map(shown);
  }

  count(storeId: number, state: ChangeSetState | undefined): Promise<number> {
    return this.uow.repos.changeSets.count(storeId, state);
  }

  async get(storeId: number, id: number): Promise<ChangeSet> {
    return shown(await findSet(this.uow.repos, storeId, id));
  }

  /** 404 unless the set is the store's, 409 (code 17) unless it is open: an import checks its set before reading the file. */
  async assertOpen(storeId: number, id: number): Promise<void> {
    assertOpen(await findSet(this.uow.repos, storeId, id), 'changed');
  }

  async operations(storeId: number, id: number, page: Page): Promise<ListedOperation[]> {
    const set = await findSet(this.uow.repos, storeId, id);
    const operations = await this.uow.repos.changeSets.operations(set.id, page);
    return operations.map((operation, at) => ({ index: page.offset + at, operation }));
  }

  /** See `ChangeSetDrafting.create`. */
  create(storeId: number, origin: ChangeOrigin, input: ChangeSetInput): Promise<ChangeSet> {
    return this.drafting.create(storeId, origin, input);
  }

  /** See `ChangeSetDrafting.addOperations`. */
  addOperations(...args: Parameters<ChangeSetDrafting['addOperations']>): Promise<ChangeSet> {
    return this.drafting.addOperations(...args);
  }

  /** See `ChangeSetDrafting.submit`. */
  submit(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.drafting.submit(storeId, origin, id);
  }

  /** See `ChangeSetDrafting.approve`. */
  approve(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.drafting.approve(storeId, origin, id);
  }

  /** See `ChangeSetDrafting.discard`. */
  discard(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.drafting.discard(storeId, origin, id);
  }

  /** See `ChangeSetPreviews.preview`. */
  preview(storeId: number, id: number, at: string | undefined): Promise<FullPreview> {
    return this.previews.preview(storeId, id, at);
  }

  /** See `ChangeSetApply.apply`. */
  apply(storeId: number, origin: ChangeOrigin, id: number, at?: string): Promise<ChangeSet> {
    return this.applying.apply(storeId, origin, id, at);
  }

  /** See `ChangeSetApply.revert`. */
  revert(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.applying.revert(storeId, origin, id);
  }

  /** See `ChangeSetApply.applyDue`. */
  applyDue(now: number, limit: number): Promise<number> {
    return this.applying.applyDue(now, limit);
  }
}
