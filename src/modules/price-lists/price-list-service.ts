import type { PriceList, PriceListInput, PriceListPrice, PriceListPriceInput, PriceListUpdate } from '../../contract/price-lists.js';
import { deleteInBatches } from '../batched-delete.js';
import { type Clock, isoTimestamp } from '../clock.js';
import { found, invalidField, notFound, validationFailed } from '../errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import { eventOf, updateEventOf } from '../events/events.js';
import { priceListChanged, priceListRecord } from '../history/change-records.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import { toPriceUnits } from '../money.js';
import type { Page } from '../page.js';
import { checkPricedItems } from '../pricing/priced-sku-check.js';
import { PriceListEntryWrites } from './price-list-entry-writes.js';
import type { Repositories, UnitOfWork } from '../unit-of-work.js';
import type { NewPriceList, PriceListFilter, PriceListPriceFilter } from './price-list-repository.js';

/**
 * Price lists shared by customers (docs/pricing.md): a fixed list prices SKUs by its entries,
 * a percentage list takes a share off every catalog price. Customers name their lists in
 * order (`priceListIds`); the resolution rule reads them after the customer's own trade prices.
 */
export class PriceListService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  list(storeId: number, filter: PriceListFilter, page: Page): Promise<PriceList[]> {
    return this.uow.repos.priceLists.list(storeId, filter, page);
  }

  count(storeId: number, filter: PriceListFilter): Promise<number> {
    return this.uow.repos.priceLists.count(storeId, filter);
  }

  async get(storeId: number, id: number): Promise<PriceList> {
    return found(await this.uow.repos.priceLists.find(storeId, id), `Price list ${id}`);
  }

  create(storeId: number, origin: ChangeOrigin, input: PriceListInput): Promise<PriceList> {
    const percentage = input.percentage ?? null;
    if (input.kind === 'percentage' && percentage === null) throw invalidField('percentage', 'is required for a percentage list');
    if (input.kind === 'fixed' && percentage !== null) throw invalidField('percentage', 'must be null or left out for a fixed list: its entries set its prices');
    const list: NewPriceList = { name: input.name, kind: input.kind, percentage: percentage === null ? null : toPriceUnits(percentage) };
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
   * Changes the name or a percentage list's percentage; the kind stays what it was. The event
   * carries the list as it was (`previous`); the history records a change of name or percentage.
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
        if (current.kind === 'fixed' && patch.percentage !== null) throw invalidField('percentage', 'must be null for a fixed list: its entries set its prices');
      }
      const updated = found(
        await repos.priceLists.update(storeId, id, {
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.percentage !== undefined && patch.percentage !== null && { percentage: toPriceUnits(patch.percentage) }),
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
   * its place in every customer's lists (a `customer.updated` event each), then the list
   * itself (`price_list.deleted`). Entries and customers go in bounded batches. The history
   * records the entries' and the list's deletion, not the customers' change: a list that did
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
          const now = new Map((await repos.customers.findMany(storeId, batch.map((customer) => customer.id))).map((customer) => [customer.id, customer]));
          const events = batch.flatMap((previous) => {
            const customer = now.get(previous.id);
            return customer === undefined ? [] : [updateEventOf(storeId, 'customer.updated', previous, customer)];
          });
          await repos.events.append(events, deletedAt);
        },
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

  async getPrice(storeId: number, priceListId: number, id: number): Promise<PriceListPrice> {
    return found(await this.uow.repos.priceLists.findPrice(storeId, priceListId, id), `Entry ${id} of price list ${priceListId}`);
  }

  /**
   * Creates every entry or none, as bulk trade prices do: `shapeProblems` are the items the
   * schema refused; the others are checked against the store's products and SKUs in two
   * queries and their windows checked, and all problems are reported together. The list must
   * be a fixed one. Entries are never de-duplicated: the rule's tie break decides.
   */
  bulkCreatePrices(storeId: number, origin: ChangeOrigin, priceListId: number, items: readonly PriceListPriceInput[], shapeProblems: readonly FieldProblem[] = []): Promise<PriceListPrice[]> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const list = found(await repos.priceLists.find(storeId, priceListId), `Price list ${priceListId}`);
      if (list.kind !== 'fixed') throw invalidField(null, `Price list ${priceListId} is a percentage list: it has no entries`);
      const { checked, problems } = await checkPricedItems(repos, storeId, items, shapeProblems);
      if (problems.length > 0) throw validationFailed(problems, items.length);
      return new PriceListEntryWrites(repos, storeId, origin, isoTimestamp(this.clock)).create(priceListId, checked);
    });
  }

  removePrice(storeId: number, origin: ChangeOrigin, priceListId: number, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      found(await new PriceListEntryWrites(repos, storeId, origin, isoTimestamp(this.clock)).removeById(priceListId, id), `Entry ${id} of price list ${priceListId}`);
    });
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
      const kept = new Map((await repos.priceLists.lastDeletedPrices(storeId, ids)).filter((entry) => entry.priceListId === priceListId).map((entry) => [entry.id, entry]));
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
      const checks = await checkPricedItems(repos, storeId, entries, []);
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
