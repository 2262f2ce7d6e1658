import type { FieldProblem } from '../../contract/errors.js';
import { validationFailed } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';

/** 422 naming each of `priceListIds` (a customer's or a group's) that is not a price list of the store. */
export async function assertPriceListsExist(repos: Repositories, storeId: number, priceListIds: readonly number[]): Promise<void> {
  if (priceListIds.length === 0) return;
  const existing = await repos.priceLists.existingIds(storeId, priceListIds);
  const problems: FieldProblem[] = priceListIds.flatMap((id, position) =>
    existing.has(id) ? [] : [{ field: `priceListIds[${position}]`, message: `Price list ${id} does not exist in this store` }],
  );
  if (problems.length > 0) throw validationFailed(problems);
}
