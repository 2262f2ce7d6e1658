import type { ChangeSetPreview, PreviewRow } from '../../contract/change-sets.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { MAX_REPORTED_PROBLEMS } from '../shared/errors.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { PricingService } from '../pricing/pricing-service.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { executeOperations, type OperationServices } from './apply-operations.js';
import type { StoredChangeSet } from './change-set-repository.js';
import { type ChangeSetRecorder, findSet } from './change-set-recorder.js';
import { OPEN_STATES, wrongState } from './change-set-rules.js';
import { KeptPreviews } from './kept-previews.js';
import { affectedPairs, firstBoundAfter, pairPrices, previewRows } from './preview.js';

/** A preview's rows, all of them, with its counts: the route pages them or writes them as CSV. */
export type FullPreview = Omit<ChangeSetPreview, 'rows' | 'total'> & { rows: PreviewRow[] };

/** What applying an open set would do, rehearsed against the live book and kept while it holds. */
export class ChangeSetPreviews {
  /** Previews of unchanged sets, by what they were worked out from (see `preview`). */
  private readonly kept = new KeptPreviews<FullPreview>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly services: OperationServices,
    private readonly pricing: PricingService,
    private readonly recorder: ChangeSetRecorder,
  ) {}

  /**
   * What applying the set would do at `at` (default: its scheduled moment, or now): it is
   * carried out in a rehearsal, undone at once, so the records and problems are exactly the
   * apply's; then every affected customer's price for each SKU and break is read as the set
   * leaves it and (after the rehearsal) as it is.
   *
   * The result is kept (`KeptPreviews`) for what it was worked out from: the set's revision, the
   * store's book (its price history's head, which every recorded change moves, and its currency
   * and rounding, which the history does not record) and the moment, so the next page, the CSV
   * or another reader of an unchanged set is answered without working it out again. A preview
   * for now holds until the first bound of a validity window after the moment it was worked out
   * at (of the store's records, or of those the set creates); one worked out while the book
   * changed is not kept.
   */
  async preview(storeId: number, id: number, at: string | undefined): Promise<FullPreview> {
    const book = await this.bookVersion(storeId);
    const set = await findSet(this.uow.repos, storeId, id);
    if (!OPEN_STATES.includes(set.state)) throw wrongState(set, 'previewed', 'it is no longer open (what an applied set changed is in the price history)');
    const fixed = at ?? set.applyAt ?? undefined;
    const moment = fixed ?? isoTimestamp(this.clock);
    const key = JSON.stringify([storeId, set.id, set.revision, book, fixed ?? 'now']);
    const kept = this.kept.find(key, moment);
    if (kept !== undefined) return { ...kept, at: moment };
    const { preview, holdsUntil } = await this.workOut(set, moment);
    if ((await this.bookVersion(storeId)) === book) this.kept.keep(key, preview, fixed === undefined ? { from: moment, until: holdsUntil } : undefined);
    return preview;
  }

  /** The preview itself (see `preview`), and until when it holds for now: the first window bound after `moment`. */
  private async workOut(set: StoredChangeSet, moment: string): Promise<{ preview: FullPreview; holdsUntil: string | null }> {
    const { storeId } = set;
    const operations = await this.recorder.allOperations(set);
    const origin: ChangeOrigin = { actor: set.createdBy, source: 'changeset', sourceId: set.id, requestId: null };
    const rehearsed = await this.uow.rehearse(async (repos) => {
      const execution = await executeOperations(this.services, storeId, origin, operations);
      const pairs = await affectedPairs(repos, storeId, execution);
      return { execution, pairs, after: await pairPrices(this.pricing, storeId, pairs, moment) };
    });
    const before = await pairPrices(this.pricing, storeId, rehearsed.pairs, moment);
    const holdsUntil = firstBoundAfter(moment, [
      await this.uow.repos.changeSets.nextWindowBound(storeId, moment),
      ...rehearsed.execution.created.flatMap(({ record }) => [record.validFrom, record.validUntil]),
    ]);
    const rows = await previewRows(rehearsed.execution, rehearsed.pairs, before, rehearsed.after);
    const prices = rows.filter((row) => row.kind === 'price');
    const preview: FullPreview = {
      changeSetId: set.id,
      at: moment,
      counts: {
        created: rehearsed.execution.created.length,
        deleted: rehearsed.execution.deleted.length,
        updated: rehearsed.execution.updated.length,
        prices: prices.length,
        changedPrices: prices.filter((row) => row.before !== row.after).length,
      },
      pricesComplete: rehearsed.pairs.complete,
      problems: rehearsed.execution.problems.slice(0, MAX_REPORTED_PROBLEMS),
      rows,
    };
    return { preview, holdsUntil };
  }

  /** What a store's preview depends on besides its set and the moment: the head of its price history, and its currency and rounding. */
  private async bookVersion(storeId: number): Promise<string> {
    const [head, terms] = await Promise.all([this.uow.repos.history.readHead(storeId), this.uow.repos.pricing.storeTerms(storeId)]);
    return JSON.stringify([head?.seq ?? 0, terms]);
  }
}
