import type { ChangeSetOperation, OperationOf } from '../../contract/change-sets.js';
import type { Customer } from '../../contract/customers.js';
import type { FieldProblem } from '../../contract/errors.js';
import type { PriceList, PriceListPrice } from '../../contract/price-lists.js';
import type { TradePrice } from '../../contract/trade-prices.js';
import type { CustomerService } from '../customers/customer-service.js';
import { AppError } from '../shared/errors.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import { toPriceUnits } from '../shared/money.js';
import type { PriceListService } from '../price-lists/price-list-service.js';
import type { TradePriceService } from '../trade-prices/trade-price-service.js';
import { WRITE_BATCH } from '../trade-prices/trade-price-writes.js';
import { longWork } from '../shared/long-work.js';
import { type AppliedEffects, noEffects, RecordChanges } from './applied-effects.js';

/** The services a change set's operations are carried out by: each its own writer, joined into the apply's one transaction. */
export interface OperationServices {
  tradePriceService: TradePriceService;
  priceListService: PriceListService;
  customerService: CustomerService;
}

/** What carrying out operations did, or would: the records created and deleted, the updates, and every problem met. */
export interface Execution {
  problems: FieldProblem[];
  /** `restored`: put back with its own id (else its id and createdAt are new, and a preview shows neither). */
  created: Array<({ resource: 'trade_price'; record: TradePrice } | { resource: 'price_list_entry'; record: PriceListPrice }) & { restored?: true }>;
  deleted: Array<{ resource: 'trade_price'; record: TradePrice } | { resource: 'price_list_entry'; record: PriceListPrice }>;
  updated: Array<{ resource: 'customer'; before: Customer; after: Customer } | { resource: 'price_list'; before: PriceList; after: PriceList }>;
  effects: AppliedEffects;
}

/**
 * Operations of one kind carried out by one call, at most: the writers' own batch, so that a
 * run is one stretch of work of theirs (a bulk create's 1000 in one statement, with its events
 * and history, held SQLite's event loop past 50 ms).
 */
const RUN = WRITE_BATCH;

/** The kinds carried out a run at a time; the others one by one. */
const RUN_KINDS = new Set<ChangeSetOperation['type']>([
  'trade_price.create',
  'trade_price.delete',
  'trade_price.restore',
  'price_list_entry.create',
  'price_list_entry.restore',
]);

/**
 * Carries out `operations` in their order, inside the caller's transaction, through the
 * services that write each kind (so every record gets its event and its history entry with
 * `origin`). An operation the live book refuses (a record gone, a customer deleted, a SKU no
 * longer the product's) is a problem with its `index` (`firstIndex` + its place), and the rest
 * are still tried, so that every problem is reported; the caller rolls back when there are any.
 * Runs of creations, deletions and restores of one kind go together, `RUN` at a time. After each
 * run (or operation) the apply steps as long work (a turn of the event loop once its budget
 * has passed, not a pause: inside the apply's transaction, on SQLite, every other write waits
 * for it), so a set of any size is slices of work of a bounded length, as the writers' own
 * batches are.
 */
export async function executeOperations(
  services: OperationServices,
  storeId: number,
  origin: ChangeOrigin,
  operations: readonly ChangeSetOperation[],
  firstIndex = 0,
): Promise<Execution> {
  const execution: Execution = { problems: [], created: [], deleted: [], updated: [], effects: noEffects() };
  const { effects } = execution;
  const prices = new RecordChanges<number>(String);
  const listEntries = new RecordChanges<[number, number]>(([listId, id]) => `${listId}:${id}`);
  /** Notes trade prices a run created (`restored`: put back with their ids) or deleted. */
  const notePrices = (records: readonly TradePrice[] | undefined, change: 'created' | 'deleted', restored = false) => {
    for (const record of records ?? []) {
      if (change === 'deleted') execution.deleted.push({ resource: 'trade_price', record });
      else execution.created.push({ resource: 'trade_price', record, ...(restored && { restored: true as const }) });
      prices.note(record.id, change);
    }
  };
  /** The same for a list's entries. */
  const noteEntries = (records: readonly PriceListPrice[] | undefined, change: 'created' | 'deleted', restored = false) => {
    for (const record of records ?? []) {
      if (change === 'deleted') execution.deleted.push({ resource: 'price_list_entry', record });
      else execution.created.push({ resource: 'price_list_entry', record, ...(restored && { restored: true as const }) });
      listEntries.note([record.priceListId, record.id], change);
    }
  };
  const work = longWork();
  for (let start = 0; start < operations.length;) {
    const first = operations[start]!;
    let end = start + 1;
    if (RUN_KINDS.has(first.type)) {
      const listOf = (operation: ChangeSetOperation) => ('priceListId' in operation ? operation.priceListId : undefined);
      while (end < operations.length && end - start < RUN && operations[end]!.type === first.type && listOf(operations[end]!) === listOf(first)) end++;
    }
    const run = operations.slice(start, end);
    const index = firstIndex + start;
    const attempt = <T>(work: () => Promise<T>, fields: { items?: string; missing?: string } = {}) =>
      attemptInto(execution.problems, index, run.length > 1 || RUN_KINDS.has(first.type), fields, work);
    switch (first.type) {
      case 'trade_price.create': {
        const items = (run as Array<OperationOf<'trade_price.create'>>).map(({ customerId, productId, sku, price, minQuantity, validFrom, validUntil }) => ({
          customerId,
          productId,
          sku,
          price,
          minQuantity,
          validFrom,
          validUntil,
        }));
        notePrices(await attempt(() => services.tradePriceService.bulkCreate(storeId, origin, items)), 'created');
        break;
      }
      case 'trade_price.delete': {
        const ids = (run as Array<OperationOf<'trade_price.delete'>>).map((operation) => operation.id);
        notePrices(await attempt(() => services.tradePriceService.removeMany(storeId, origin, ids)), 'deleted');
        break;
      }
      case 'trade_price.restore': {
        const ids = (run as Array<OperationOf<'trade_price.restore'>>).map((operation) => operation.id);
        notePrices(await attempt(() => services.tradePriceService.restore(storeId, origin, ids)), 'created', true);
        break;
      }
      case 'trade_prices.replace': {
        const result = await attempt(
          () => services.tradePriceService.replace(storeId, origin, { customerId: first.customerId, prices: first.prices, scope: first.scope }),
          { items: 'prices', missing: 'customerId' },
        );
        notePrices(result?.deleted, 'deleted');
        notePrices(result?.created as TradePrice[] | undefined, 'created');
        break;
      }
      case 'price_list_entry.create': {
        const items = (run as Array<OperationOf<'price_list_entry.create'>>).map(
          ({ productId, sku, price, minQuantity, validFrom, validUntil, quantityRule }) => ({
            productId,
            sku,
            price,
            minQuantity,
            validFrom,
            validUntil,
            quantityRule,
          }),
        );
        noteEntries(
          await attempt(() => services.priceListService.bulkCreatePrices(storeId, origin, first.priceListId, items), { missing: 'priceListId' }),
          'created',
        );
        break;
      }
      case 'price_list_entry.restore': {
        const ids = (run as Array<OperationOf<'price_list_entry.restore'>>).map((operation) => operation.id);
        noteEntries(
          await attempt(() => services.priceListService.restorePrices(storeId, origin, first.priceListId, ids), { missing: 'priceListId' }),
          'created',
          true,
        );
        break;
      }
      case 'price_list_entry.delete': {
        const entry = await attempt(
          async () => {
            const before = await services.priceListService.getPrice(storeId, first.priceListId, first.id);
            await services.priceListService.removePrice(storeId, origin, first.priceListId, first.id);
            return before;
          },
          { missing: 'id' },
        );
        noteEntries(entry === undefined ? [] : [entry], 'deleted');
        break;
      }
      case 'customer.set_price_lists': {
        const change = await attempt(
          async () => {
            const before = await services.customerService.get(storeId, first.customerId);
            const expected = first.expectedPriceListIds;
            if (expected !== undefined && before.priceListIds.join(',') !== expected.join(',')) {
              throw changedSince(
                'expectedPriceListIds',
                `Customer ${first.customerId} has the price lists ${listText(before.priceListIds)}, not ${listText(expected)}`,
              );
            }
            return { before, after: await services.customerService.update(storeId, origin, first.customerId, { priceListIds: first.priceListIds }) };
          },
          { missing: 'customerId' },
        );
        if (change !== undefined) {
          execution.updated.push({ resource: 'customer', ...change });
          const noted = effects.customers.find((customer) => customer.id === change.before.id);
          if (noted === undefined)
            effects.customers.push({ id: change.before.id, priceListIds: change.before.priceListIds, priceListIdsAfter: change.after.priceListIds });
          else noted.priceListIdsAfter = change.after.priceListIds;
        }
        break;
      }
      case 'price_list.set_percentage': {
        const change = await attempt(
          async () => {
            const before = await services.priceListService.get(storeId, first.priceListId);
            if (before.kind !== 'percentage')
              throw new AppError('validation_failed', 'is a fixed list: its entries set its prices', [
                { field: 'priceListId', message: `Price list ${first.priceListId} is a fixed list: its entries set its prices` },
              ]);
            const expected = first.expectedPercentage;
            if (expected !== undefined && toPriceUnits(before.percentage ?? 0) !== toPriceUnits(expected)) {
              throw changedSince('expectedPercentage', `Price list ${first.priceListId} takes ${before.percentage ?? 0} % off, not ${expected} %`);
            }
            return { before, after: await services.priceListService.update(storeId, origin, first.priceListId, { percentage: first.percentage }) };
          },
          { missing: 'priceListId' },
        );
        if (change !== undefined) {
          execution.updated.push({ resource: 'price_list', ...change });
          const noted = effects.lists.find((list) => list.id === change.before.id);
          if (noted === undefined)
            effects.lists.push({ id: change.before.id, percentage: change.before.percentage ?? 0, percentageAfter: change.after.percentage ?? 0 });
          else noted.percentageAfter = change.after.percentage ?? 0;
        }
        break;
      }
    }
    start = end;
    await work.step();
  }
  effects.tradePrices = { created: prices.created(), deleted: prices.deleted() };
  effects.listEntries = { created: listEntries.created(), deleted: listEntries.deleted() };
  return execution;
}

/** A value that is no longer what the operation expects (what its set left, for a revert): 422, the operation refused. */
function changedSince(field: string, found: string): AppError {
  const message = `${found} as expected: changed since (a revert expects what its set left), so this would overwrite that change`;
  return new AppError('validation_failed', message, [{ field, message }]);
}

function listText(ids: readonly number[]): string {
  return `[${ids.join(', ')}]`;
}

/**
 * Runs `work`; a refusal of the store (422, 404, 409 in use) becomes problems of the operation
 * at `index` (of a run: each item's own, by its place in the run; of a replace: with the item's
 * place in `prices`). A record not found is a problem of the field that names it
 * (`fields.missing`). Other errors go on up.
 */
async function attemptInto<T>(
  problems: FieldProblem[],
  index: number,
  isRun: boolean,
  fields: { items?: string; missing?: string },
  work: () => Promise<T>,
): Promise<T | undefined> {
  const itemsField = fields.items;
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError) || !['validation_failed', 'not_found', 'in_use'].includes(error.kind)) throw error;
    const found = error.problems ?? [{ field: error.kind === 'not_found' ? (fields.missing ?? null) : null, message: error.message }];
    for (const problem of found) {
      if (isRun) problems.push({ index: index + (problem.index ?? 0), field: problem.field, message: problem.message });
      else if (problem.index !== undefined && itemsField !== undefined)
        problems.push({ index, field: `${itemsField}[${problem.index}]${problem.field === null ? '' : `.${problem.field}`}`, message: problem.message });
      else problems.push({ index, field: problem.field, message: problem.message });
    }
    return undefined;
  }
}
