import { type ChangeSetOperation, MAX_OPERATIONS_PER_SET, MAX_PRICES_PER_SET } from '../../contract/change-sets.js';
import { MAX_IMPORT_ERRORS } from '../../contract/imports.js';
import { AppError } from '../shared/errors.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { importOrigin, StaleCheck } from './import-lease.js';
import type { StagedPrice } from './import-contents-repository.js';
import type { ClaimedImport } from './import-repository.js';
import { asNewPrice, stagedBatches } from './staged-prices.js';

/** What an import into a change set needs of it: `ChangeSetService.addOperations`. */
export interface ChangeSetSink {
  addOperations(storeId: number, origin: ChangeOrigin, id: number, operations: readonly ChangeSetOperation[]): Promise<unknown>;
}

/**
 * An import into a change set (`changeSet=ID`): its staged prices become the set's operations,
 * all of them or none (`add`: a `trade_price.create` a row; `replace`: a `trade_prices.replace`
 * of scope `customer` for each customer of the file), and the book is not touched. The set
 * refusing them (it holds at most 10 000 operations and 20 000 prices, it is no longer open, an
 * operation the book refuses) fails the import with its reasons (`StaleCheck`).
 */
export class ImportChangeSetBridge {
  constructor(
    private readonly uow: UnitOfWork,
    /** Absent: imports into change sets fail (a tool built without the change set service). */
    private readonly changeSets: ChangeSetSink | undefined,
  ) {}

  async addStaged(claim: ClaimedImport, changeSetId: number, stagedCount: number): Promise<void> {
    if (this.changeSets === undefined) throw new Error('imports into change sets need the change set service');
    // Refused before a row is read: the operations are held in memory, so a file of millions of
    // rows must not be. A row is an operation in `add` mode, and a price in either.
    const most = claim.mode === 'add' ? Math.min(MAX_OPERATIONS_PER_SET, MAX_PRICES_PER_SET) : MAX_PRICES_PER_SET;
    if (stagedCount > most) {
      throw new StaleCheck([
        {
          row: 1,
          field: null,
          message: `The file has ${stagedCount} prices; an import into a change set takes at most ${most} (a set holds at most ${MAX_OPERATIONS_PER_SET} operations and ${MAX_PRICES_PER_SET} prices); nothing was added`,
        },
      ]);
    }
    const staged: StagedPrice[] = [];
    for await (const batch of stagedBatches(this.uow.repos, claim.id)) staged.push(...batch);
    try {
      await this.changeSets.addOperations(claim.storeId, importOrigin(claim), changeSetId, operationsOf(claim, staged));
    } catch (error) {
      if (!(error instanceof AppError) || !['validation_failed', 'not_found', 'wrong_state'].includes(error.kind)) throw error;
      const reasons = (error.problems ?? [])
        .slice(0, MAX_IMPORT_ERRORS - 1)
        .map((problem) => ({ row: 1, field: problem.field, message: `Operation ${problem.index ?? 0}: ${problem.message}` }));
      throw new StaleCheck([
        { row: 1, field: null, message: `Change set ${changeSetId} refused the file's operations; nothing was added: ${error.message}` },
        ...reasons,
      ]);
    }
  }
}

/** The staged prices as the set's operations: a create a price (`add`), or a replace a customer (`replace`). */
function operationsOf(claim: ClaimedImport, staged: readonly StagedPrice[]): ChangeSetOperation[] {
  if (claim.mode === 'add') return staged.map((price) => ({ type: 'trade_price.create', ...asNewPrice(price) }));
  const byCustomer = new Map<number, StagedPrice[]>();
  for (const price of staged) byCustomer.set(price.customerId, [...(byCustomer.get(price.customerId) ?? []), price]);
  return [...byCustomer].map(([customerId, prices]) => ({
    type: 'trade_prices.replace',
    customerId,
    scope: 'customer',
    prices: prices.map(({ productId, sku, price, minQuantity, validFrom, validUntil }) => ({ productId, sku, price, minQuantity, validFrom, validUntil })),
  }));
}
