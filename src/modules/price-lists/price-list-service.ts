import { MAX_CUSTOMER_GROUPS } from '../../contract/customer-groups.js';
import {
  MAX_LIST_REPLACE_STORED,
  type PriceList,
  type PriceListEntryOverlap,
  type PriceListInput,
  type PriceListKind,
  type PriceListPrice,
  type PriceListPriceInput,
  type PriceListUpdate,
  type ReplacePriceListPricesRequest,
  type ReplacePriceListPricesResult,
} from '../../contract/price-lists.js';
import { deleteInBatches } from '../shared/batched-delete.js';
import type { Rounding } from '../currency/rounding.js';
import { isoTimestamp } from '../shared/clock.js';
import { AppError, found, invalidField, notFound, refusedBy, validationFailed } from '../shared/errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import { eventOf, updateEventOf } from '../events/events.js';
import { priceListChanged, priceListRecord } from '../history/change-records.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import { toPriceUnits } from '../shared/money.js';
import type { Page } from '../shared/page.js';
import { diffPrices } from '../trade-prices/price-diff.js';
import { WRITE_BATCH } from '../trade-prices/trade-price-writes.js';
import { longWork, nextTurn, onNextTurn } from '../shared/long-work.js';
import { checkEntryItems } from './entry-check.js';
import { columnOfField, readEntryFile } from './entry-file.js';
import { pageOfOverlaps, plannedOverlaps } from './list-overlaps.js';
import { PriceListEntryWrites } from './price-list-entry-writes.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { NewPriceList, PriceListFilter, PriceListPriceFilter } from './price-list-repository.js';
import { StoreRecordsService } from '../shared/store-records-service.js';

/** Stored entries a replace reads at a time (each read a turn of its own). */
const REPLACE_READ = 2500;

/**
 * Price lists shared by customers (docs/pricing.md): a fixed list prices SKUs by its entries,
 * a percentage list takes a share off every catalog price. Customers name their lists in
 * order (`priceListIds`); the resolution rule reads them after the customer's own trade prices.
 */
export class PriceListService extends StoreRecordsService<PriceList, PriceListFilter> {
  protected records(repos: Repositories) {
    return repos.priceLists;
  }

  async get(storeId: number, id: number): Promise<PriceList> {
    return found(await this.uow.repos.priceLists.find(storeId, id), `Price list ${id}`);
  }

  create(storeId: number, origin: ChangeOrigin, input: PriceListInput): Promise<PriceList> {
    const percentage = input.percentage ?? null;
    if (input.kind === 'percentage' && percentage === null) throw invalidField('percentage', 'is required for a percentage list');
    if (input.kind === 'fixed' && percentage !== null)
      throw invalidField('percentage', 'must be null or left out for a fixed list: its entries set its prices');
    const list: NewPriceList = {
      name: input.name,
      kind: input.kind,
      percentage: percentage === null ? null : toPriceUnits(percentage),
      policy: input.policy ?? 'first',
      rounding: listRounding(input.kind, input.rounding),
    };
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const createdAt = isoTimestamp(this.clock);
      const created = await repos.priceLists.insert(storeId, list, createdAt);
      await repos.events.append([eventOf(storeId, 'price_list.created', created)], createdAt);
      await repos.history.append(storeId, createdAt, origin, [priceListRecord(null, created)]);
      return created;
    });
  }

  /**
   * Changes the name, the policy or a percentage list's percentage; the kind stays what it was.
   * The event carries the list as it was (`previous`); the history records a change of name,
   * percentage or policy (an as-of price reads the policy then).
   */
  update(storeId: number, origin: ChangeOrigin, id: number, patch: PriceListUpdate): Promise<PriceList> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const current = found(await repos.priceLists.find(storeId, id), `Price list ${id}`);
      if (patch.kind !== undefined && patch.kind !== current.kind) {
        throw invalidField('kind', `cannot change from '${current.kind}' to '${patch.kind}': create another list`);
      }
      if (patch.percentage !== undefined) {
        if (current.kind === 'percentage' && patch.percentage === null) throw invalidField('percentage', 'cannot be null for a percentage list');
        if (current.kind === 'fixed' && patch.percentage !== null)
          throw invalidField('percentage', 'must be null for a fixed list: its entries set its prices');
      }
      const updated = found(
        await repos.priceLists.update(storeId, id, {
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.percentage !== undefined && patch.percentage !== null && { percentage: toPriceUnits(patch.percentage) }),
          ...(patch.policy !== undefined && { policy: patch.policy }),
          ...(patch.rounding !== undefined && { rounding: listRounding(current.kind, patch.rounding) }),
        }),
        `Price list ${id}`,
      );
      const changedAt = isoTimestamp(this.clock);
      await repos.events.append([updateEventOf(storeId, 'price_list.updated', current, updated)], changedAt);
      if (priceListChanged(current, updated)) await repos.history.append(storeId, changedAt, origin, [priceListRecord(current, updated)]);
      return updated;
    });
  }

  /**
   * Deletes the list in one transaction: its entries (a `price_list_price.deleted` event each),
   * its place in every customer's lists (a `customer.updated` event each) and every group's (a
   * `customer_group.updated` event each), then the list
   * itself (`price_list.deleted`). Entries and customers go in bounded batches. The history
   * records the entries' and the list's deletion, not the customers' or groups' change: a list that did
   * not exist at a moment prices no one then (docs/history.md).
   */
  remove(storeId: number, origin: ChangeOrigin, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const list = found(await repos.priceLists.find(storeId, id), `Price list ${id}`);
      const deletedAt = isoTimestamp(this.clock);
      await new PriceListEntryWrites(repos, storeId, origin, deletedAt).removeAllOf({ priceListId: id });
      await deleteInBatches(
        async (afterId, limit) => {
          // Each customer as it was (its lists in order, this one included): the event's `previous`.
          const before = await repos.customers.findMany(storeId, await repos.customers.withPriceListBatch(storeId, id, afterId, limit));
          const taken = new Set(await repos.customers.removePriceListBatch(storeId, id, afterId, limit));
          return before.filter((customer) => taken.has(customer.id)).sort((a, b) => a.id - b.id);
        },
        async (batch) => {
          const now = new Map(
            (
              await repos.customers.findMany(
                storeId,
                batch.map((customer) => customer.id),
              )
            ).map((customer) => [customer.id, customer]),
          );
          const events = batch.flatMap((previous) => {
            const customer = now.get(previous.id);
            return customer === undefined ? [] : [updateEventOf(storeId, 'customer.updated', previous, customer)];
          });
          await repos.events.append(events, deletedAt);
        },
      );
      // Groups are few (MAX_CUSTOMER_GROUPS a store): one read, one write, an event each.
      const groupsBefore = await repos.customerGroups.list(storeId, { priceListId: id }, { offset: 0, count: MAX_CUSTOMER_GROUPS });
      await repos.customerGroups.removePriceList(storeId, id);
      const groupsAfter = new Map(
        (
          await repos.customerGroups.findMany(
            storeId,
            groupsBefore.map((group) => group.id),
          )
        ).map((group) => [group.id, group]),
      );
      await repos.events.append(
        groupsBefore.flatMap((previous) => {
          const group = groupsAfter.get(previous.id);
          return group === undefined ? [] : [updateEventOf(storeId, 'customer_group.updated', previous, group)];
        }),
        deletedAt,
      );
      if (!(await repos.priceLists.delete(storeId, id))) throw notFound(`Price list ${id}`);
      await repos.events.append([eventOf(storeId, 'price_list.deleted', list)], deletedAt);
      await repos.history.append(storeId, deletedAt, origin, [priceListRecord(list, null)]);
    });
  }

  listPrices(storeId: number, priceListId: number, filter: PriceListPriceFilter, page: Page): Promise<PriceListPrice[]> {
    return this.withList(storeId, priceListId, (repos) => repos.priceLists.listPrices(storeId, priceListId, filter, page));
  }

  countPrices(storeId: number, priceListId: number, filter: PriceListPriceFilter): Promise<number> {
    return this.withList(storeId, priceListId, (repos) => repos.priceLists.countPrices(storeId, priceListId, filter));
  }

  /** The overlaps among the list's entries, the page asked for (`pageOfOverlaps`); 404 when the list is not the store's. */
  async overlaps(storeId: number, priceListId: number, filter: Pick<PriceListPriceFilter, 'productId' | 'sku'>, page: Page): Promise<PriceListEntryOverlap[]> {
    const repos = this.uow.repos;
    if ((await repos.priceLists.existingIds(storeId, [priceListId])).size === 0) throw notFound(`Price list ${priceListId}`);
    return pageOfOverlaps(repos, storeId, priceListId, filter, page);
  }

  async getPrice(storeId: number, priceListId: number, id: number): Promise<PriceListPrice> {
    return found(await this.uow.repos.priceLists.findPrice(storeId, priceListId, id), `Entry ${id} of price list ${priceListId}`);
  }

  /**
   * Creates every entry or none, as bulk trade prices do: `shapeProblems` are the items the
   * schema refused; the others are checked against the store's products and SKUs in two
   * queries and their windows checked, and all problems are reported together. The list must
   * be a fixed one. Entries are never de-duplicated: the rule's tie break decides.
   */
  bulkCreatePrices(
    storeId: number,
    origin: ChangeOrigin,
    priceListId: number,
    items: readonly PriceListPriceInput[],
    shapeProblems: readonly FieldProblem[] = [],
  ): Promise<PriceListPrice[]> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const list = found(await repos.priceLists.find(storeId, priceListId), `Price list ${priceListId}`);
      if (list.kind !== 'fixed') throw invalidField(null, `Price list ${priceListId} is a percentage list: it has no entries`);
      const { checked, problems } = await checkEntryItems(repos, storeId, items, shapeProblems);
      if (problems.length > 0) throw validationFailed(problems, items.length);
      return new PriceListEntryWrites(repos, storeId, origin, isoTimestamp(this.clock)).create(checked, { priceListId });
    });
  }

  removePrice(storeId: number, origin: ChangeOrigin, priceListId: number, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      found(
        await new PriceListEntryWrites(repos, storeId, origin, isoTimestamp(this.clock)).removeById(id, { priceListId }),
        `Entry ${id} of price list ${priceListId}`,
      );
    });
  }

  /**
   * Makes the list's entries exactly `prices` (scope `list`) or replaces the entries of the SKUs
   * named (scope `skus`), in one transaction, as a trade price replace does for a customer: an
   * entry equal in every field to one already there keeps it and its id (no event); the others
   * are created, the entries left over deleted, each with its event and history. The items are
   * checked as a bulk create's, every problem reported together. The answer says where the
   * entries it leaves overlap (`overlaps`). A dry run answers the same and changes nothing.
   */
  async replacePrices(
    storeId: number,
    origin: ChangeOrigin,
    priceListId: number,
    request: ReplacePriceListPricesRequest,
    shapeProblems: readonly FieldProblem[] = [],
  ): Promise<ReplacePriceListPricesResult> {
    // Up to 5000 items were just parsed and validated: the checks get a turn of their own.
    await nextTurn();
    return this.uow
      .transaction(async (repos) => {
        // A dry run too: its reads must see one state of the list, and no price writer commits while it holds the lock.
        await repos.history.lockChain(storeId);
        const list = found(await repos.priceLists.find(storeId, priceListId), `Price list ${priceListId}`);
        const refused = refusedBy(shapeProblems);
        if (refused(undefined, null)) throw validationFailed(shapeProblems);
        if (list.kind !== 'fixed') throw invalidField(null, `Price list ${priceListId} is a percentage list: it has no entries`);
        const items = refused(undefined, 'prices') ? [] : request.prices;
        const { checked, problems } = await checkEntryItems(repos, storeId, items, shapeProblems);
        if (problems.length > 0) throw validationFailed(problems);
        const skus = request.scope === 'skus' ? [...new Set(checked.map((item) => item.sku))] : undefined;
        // The stored entries, a few thousand a read along the list's pricing index, as long work
        // (after a turn: the checks came before); one read past the bound tells it is passed.
        const existing: PriceListPrice[] = [];
        const work = longWork();
        await work.turn();
        for (;;) {
          await work.step();
          const read = await repos.priceLists.pricesInKeyOrder(storeId, priceListId, skus === undefined ? {} : { skus }, existing.at(-1), REPLACE_READ);
          existing.push(...read);
          if (read.length < REPLACE_READ || existing.length > MAX_LIST_REPLACE_STORED) break;
        }
        if (existing.length > MAX_LIST_REPLACE_STORED) {
          const what = skus === undefined ? 'entries' : 'entries of the SKUs named';
          throw invalidField(
            'scope',
            `Price list ${priceListId} holds more than ${MAX_LIST_REPLACE_STORED} ${what}, more than one replace takes: replace fewer SKUs at a time (scope 'skus'), or delete the list and make it again`,
          );
        }
        await nextTurn();
        const diff = diffPrices(existing, checked);
        await nextTurn();
        const overlaps = plannedOverlaps(checked, diff.matches);
        if (request.dryRun === true) {
          const created = diff.create.map((item) => ({ id: null, priceListId, ...item, createdAt: null }));
          return { created, deleted: diff.remove, unchanged: diff.unchanged.length, overlaps };
        }
        const writes = new PriceListEntryWrites(repos, storeId, origin, isoTimestamp(this.clock), { batch: WRITE_BATCH, pace: nextTurn });
        const created = await writes.apply(diff, { priceListId });
        // A created entry's id: the prices no entry matched were created in their order.
        const createdIds = new Map<number, number>();
        diff.matches.forEach((match, index) => {
          if (match === undefined) createdIds.set(index, created[createdIds.size]!.id);
        });
        for (const overlap of overlaps) for (const entry of overlap.entries) entry.id ??= createdIds.get(entry.index)!;
        return { created, deleted: diff.remove, unchanged: diff.unchanged.length, overlaps };
      })
      .then(onNextTurn);
  }

  /**
   * A list's entries from a CSV file (docs/pricing.md, "Importing a list's entries"): read and
   * checked (`readEntryFile`), each SKU's product looked up, then a replace of `scope`, dry or
   * not. Every problem is reported at the file's data row (`index`, from 0) and column.
   */
  async importPrices(
    storeId: number,
    origin: ChangeOrigin,
    priceListId: number,
    csv: Buffer,
    options: { scope: 'list' | 'skus'; dryRun: boolean },
  ): Promise<ReplacePriceListPricesResult> {
    const repos = this.uow.repos;
    if ((await repos.priceLists.existingIds(storeId, [priceListId])).size === 0) throw notFound(`Price list ${priceListId}`);
    const { rows, problems } = await readEntryFile(csv);
    const { skuOwners } = await repos.tradePrices.findReferences(storeId, [], [], [...new Set(rows.map((row) => row.sku))]);
    const prices = rows.flatMap(({ index, sku, ...entry }) => {
      const productId = skuOwners.get(sku);
      if (productId === undefined) problems.push({ index, field: 'sku', message: `SKU '${sku}' does not exist in this store` });
      return productId === undefined ? [] : [{ productId, sku, ...entry }];
    });
    if (problems.length > 0) throw validationFailed(problems);
    try {
      return await this.replacePrices(storeId, origin, priceListId, { scope: options.scope, dryRun: options.dryRun, prices });
    } catch (error) {
      // Every row became a price, in order: a price's index is its row's.
      if (!(error instanceof AppError) || error.kind !== 'validation_failed') throw error;
      throw new AppError(
        error.kind,
        error.message,
        error.problems?.map((problem) => ({ ...problem, field: columnOfField(problem.field) })),
      );
    }
  }

  /**
   * Puts deleted entries of a fixed list back as they were, with their own ids (a change set's
   * revert). Refused, with each id's `index`: an entry that is live, one the list never had,
   * or one whose product or SKU no longer allows it.
   */
  restorePrices(storeId: number, origin: ChangeOrigin, priceListId: number, ids: readonly number[]): Promise<PriceListPrice[]> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const list = found(await repos.priceLists.find(storeId, priceListId), `Price list ${priceListId}`);
      if (list.kind !== 'fixed') throw invalidField(null, `Price list ${priceListId} is a percentage list: it has no entries`);
      const kept = new Map(
        (await repos.priceLists.lastDeletedPrices(storeId, ids)).filter((entry) => entry.priceListId === priceListId).map((entry) => [entry.id, entry]),
      );
      const problems: FieldProblem[] = [];
      const seen = new Set<number>();
      for (const [index, id] of ids.entries()) {
        if (seen.has(id) || (await repos.priceLists.findPrice(storeId, priceListId, id)) !== undefined) {
          problems.push({ index, field: 'id', message: `Entry ${id} of price list ${priceListId} exists: only a deleted entry can be restored` });
        } else if (!kept.has(id)) problems.push({ index, field: 'id', message: `Entry ${id} was never deleted from price list ${priceListId}` });
        seen.add(id);
      }
      if (problems.length > 0) throw validationFailed(problems, ids.length);
      const entries = ids.map((id) => kept.get(id)!);
      const checks = await checkEntryItems(repos, storeId, entries, []);
      if (checks.problems.length > 0) throw validationFailed(checks.problems, ids.length);
      return new PriceListEntryWrites(repos, storeId, origin, isoTimestamp(this.clock)).restore(entries);
    });
  }

  /** A read under a list: 404 when the list is not the store's. */
  private async withList<T>(storeId: number, priceListId: number, read: (repos: Repositories) => Promise<T>): Promise<T> {
    const repos = this.uow.repos;
    if ((await repos.priceLists.existingIds(storeId, [priceListId])).size === 0) throw notFound(`Price list ${priceListId}`);
    return read(repos);
  }
}

/** A list's own rounding as sent (null or absent: the store's); only a percentage list computes prices to round. */
function listRounding(kind: PriceListKind, rounding: PriceListInput['rounding']): Rounding | null {
  if (rounding === undefined || rounding === null) return null;
  if (kind === 'fixed') throw invalidField('rounding', 'must be null or left out for a fixed list: its entries are charged as stored');
  return { incrementUnits: toPriceUnits(rounding.increment), mode: rounding.mode };
}
