import type { Variation, VariationInput, VariationUpdate } from '../../contract/variations.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { found, notFound, validationFailed } from '../shared/errors.js';
import type { Page } from '../shared/page.js';
import { updateEventOf } from '../events/events.js';
import { variationPricingChanged, variationRecord } from '../history/change-records.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { Product } from '../../contract/products.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { deletePricesOf, refuseWhilePriced } from './sku-prices.js';
import { ruleOfInput, ruleOfPatch, ruleProblems } from '../quantity-rules/quantity-rule.js';
import { claimSkus, skusInUseProblems } from './sku-rules.js';

/** Variations one at a time, under their product; each keeps its entry in the SKU register. */
export class VariationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async list(storeId: number, productId: number, page: Page): Promise<Variation[]> {
    await productMustExist(this.uow.repos, storeId, productId);
    return this.uow.repos.variations.list(storeId, productId, page);
  }

  async count(storeId: number, productId: number): Promise<number> {
    await productMustExist(this.uow.repos, storeId, productId);
    return this.uow.repos.variations.count(storeId, productId);
  }

  get(storeId: number, productId: number, id: number): Promise<Variation> {
    return mustFind(this.uow.repos, storeId, productId, id);
  }

  create(storeId: number, origin: ChangeOrigin, productId: number, input: VariationInput): Promise<Variation> {
    const fields = { sku: input.sku, price: input.price ?? null, stock: input.stock ?? null, quantityRule: ruleOfInput(input.quantityRule) };
    const slots = [{ sku: fields.sku, field: 'sku' }];
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const product = await mustFindProduct(repos, storeId, productId);
      const problems = [
        ...(fields.quantityRule === null ? [] : ruleProblems(fields.quantityRule, 'quantityRule')),
        ...(await skusInUseProblems(repos, storeId, slots)),
      ];
      if (problems.length > 0) throw validationFailed(problems);
      const changedAt = isoTimestamp(this.clock);
      const [created] = await repos.variations.insertMany(storeId, productId, [fields], changedAt);
      if (created === undefined) throw new Error('insert returned no variation');
      await claimSkus(repos, storeId, [{ sku: created.sku, productId, variationId: created.id }], slots);
      await announceProductChange(repos, storeId, product, changedAt);
      await repos.history.append(storeId, changedAt, origin, [variationRecord(null, created)]);
      return created;
    });
  }

  /**
   * Changes the fields sent; a new SKU must be free in the store (its product's included), and
   * the old one unpriced: a rename is refused (409) while trade prices or price list entries
   * of the old SKU remain. The history records a new price, SKU or quantity rule.
   */
  update(storeId: number, origin: ChangeOrigin, productId: number, id: number, patch: VariationUpdate): Promise<Variation> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const current = await mustFind(repos, storeId, productId, id);
      const product = await mustFindProduct(repos, storeId, productId);
      const newSku = patch.sku !== undefined && patch.sku !== current.sku ? patch.sku : undefined;
      const slots = newSku === undefined ? [] : [{ sku: newSku, field: 'sku' }];
      const quantityRule = ruleOfPatch(patch.quantityRule);
      const problems = [
        ...(quantityRule === undefined || quantityRule === null ? [] : ruleProblems(quantityRule, 'quantityRule')),
        ...(await skusInUseProblems(repos, storeId, slots)),
      ];
      if (problems.length > 0) throw validationFailed(problems);
      if (newSku !== undefined) {
        // Released first: no price of the old SKU can be written between the check and the rename.
        await repos.skus.releaseVariation(storeId, productId, id);
        await refuseWhilePriced(repos, storeId, productId, current.sku, 'renaming');
      }
      const fields = {
        ...(patch.sku !== undefined && { sku: patch.sku }),
        ...(patch.price !== undefined && { price: patch.price }),
        ...(patch.stock !== undefined && { stock: patch.stock }),
        ...(quantityRule !== undefined && { quantityRule }),
      };
      const updated = found(await repos.variations.update(storeId, productId, id, fields), `Variation ${id} of product ${productId}`);
      if (newSku !== undefined) await claimSkus(repos, storeId, [{ sku: newSku, productId, variationId: id }], slots);
      const changedAt = isoTimestamp(this.clock);
      await announceProductChange(repos, storeId, product, changedAt);
      if (variationPricingChanged(current, updated)) await repos.history.append(storeId, changedAt, origin, [variationRecord(current, updated)]);
      return updated;
    });
  }

  /**
   * Deletes the variation with its trade prices and price list entries, as a product's deletion
   * does (each record an event, before the product's `product.updated`), and frees its SKU.
   */
  remove(storeId: number, origin: ChangeOrigin, productId: number, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const variation = await mustFind(repos, storeId, productId, id);
      const product = await mustFindProduct(repos, storeId, productId);
      const deletedAt = isoTimestamp(this.clock);
      await repos.skus.releaseVariation(storeId, productId, id);
      await deletePricesOf(repos, storeId, origin, { productId, sku: variation.sku }, deletedAt);
      await repos.variations.deleteMany(storeId, productId, [id]);
      await announceProductChange(repos, storeId, product, deletedAt);
      await repos.history.append(storeId, deletedAt, origin, [variationRecord(variation, null)]);
    });
  }
}

/** A variation is part of its product's record: each change is a `product.updated` event, with the product as it was (`previous`). */
async function announceProductChange(repos: Repositories, storeId: number, previous: Product, changedAt: string): Promise<void> {
  const product = await repos.products.find(storeId, previous.id);
  if (product !== undefined) await repos.events.append([updateEventOf(storeId, 'product.updated', previous, product)], changedAt);
}

async function productMustExist(repos: Repositories, storeId: number, productId: number): Promise<void> {
  if (!(await repos.products.exists(storeId, productId))) throw notFound(`Product ${productId}`);
}

async function mustFindProduct(repos: Repositories, storeId: number, productId: number): Promise<Product> {
  return found(await repos.products.find(storeId, productId), `Product ${productId}`);
}

async function mustFind(repos: Repositories, storeId: number, productId: number, id: number): Promise<Variation> {
  return found(await repos.variations.find(storeId, productId, id), `Variation ${id} of product ${productId}`);
}
