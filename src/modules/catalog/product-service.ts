import { MAX_BULK_VARIATIONS, type Product, type ProductInput, type ProductUpdate } from '../../contract/products.js';
import type { ProductVariation, Variation, VariationInput } from '../../contract/variations.js';
import { isoTimestamp } from '../shared/clock.js';
import { AppError, asBulkItem, found, notFound, validationFailed } from '../shared/errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import { eventOf, updateEventOf } from '../events/events.js';
import { productPricingChanged, productRecord, variationPricingChanged, variationRecord } from '../history/change-records.js';
import type { ChangeOrigin, HistoryRecord } from '../history/history-entry.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { ProductFields, ProductFilter } from './product-repository.js';
import { bulkProductProblems } from './bulk-product-checks.js';
import { deletePricesOf, refuseWhilePriced } from './sku-prices.js';
import type { SkuHolder } from './sku-repository.js';
import { claimSkus, duplicateSkuProblems, type SkuSlot, skusInUseProblems } from './sku-rules.js';
import type { VariationFields } from './variation-repository.js';
import { longWork, onNextTurn } from '../shared/long-work.js';
import type { QuantityRuleInput } from '../../contract/quantity-rules.js';
import { ruleOfInput, ruleProblems, sameRule } from '../quantity-rules/quantity-rule.js';
import { StoreRecordsService } from '../shared/store-records-service.js';

/** History records a bulk create appends at once, about (a product's records are never split). */
const HISTORY_PER_APPEND = 250;

export class ProductService extends StoreRecordsService<Product, ProductFilter> {
  protected records(repos: Repositories) {
    return repos.products;
  }

  async get(storeId: number, id: number): Promise<Product> {
    return mustFind(this.uow.repos, storeId, id);
  }

  /** The store's products of these ids (`embed=product`); missing ids and other stores' are simply absent. */
  findMany(storeId: number, ids: readonly number[]): Promise<Product[]> {
    return this.uow.repos.products.findMany(storeId, ids);
  }

  /** Creates the product with its variations, SKUs and category links in one transaction. */
  create(storeId: number, origin: ChangeOrigin, input: ProductInput): Promise<Product> {
    const draft = productDraft(input);
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      await checkCatalogRules(repos, storeId, draft.slots, draft.categoryIds, undefined, draft.ruleProblems);
      const createdAt = isoTimestamp(this.clock);
      const { product, records } = await insertProduct(repos, storeId, draft, createdAt);
      await repos.history.append(storeId, createdAt, origin, records);
      return product;
    });
  }

  /**
   * Creates 1–1000 products, all or none, in one transaction, each as `create` does (the same
   * writes and `product.created` event, in request order). `shapeProblems` are the schema's, an
   * item's with its `index`; every problem is reported together in one 422. Work: one query for
   * every SKU of the request, one per 1000 categories, then a fixed few per product, as long work
   * (a turn of the event loop between products once its budget has passed), with turns of their
   * own before the commit and before the answer.
   */
  bulkCreate(storeId: number, origin: ChangeOrigin, items: readonly ProductInput[], shapeProblems: readonly FieldProblem[] = []): Promise<Product[]> {
    const variationCount = items.reduce((sum, item) => sum + (isRecord(item) && Array.isArray(item.variations) ? item.variations.length : 0), 0);
    if (variationCount > MAX_BULK_VARIATIONS) {
      const message = `the products carry ${variationCount} variations, at most ${MAX_BULK_VARIATIONS} in one request`;
      throw new AppError('validation_failed', `Invalid JSON structure: ${message}`, [{ field: null, message }]);
    }
    const refused = new Set(shapeProblems.map((problem) => problem.index));
    const drafts = items.map((item, index) => (refused.has(index) ? undefined : productDraft(item)));
    return this.uow
      .transaction(async (repos) => {
        await repos.history.lockChain(storeId);
        const work = longWork();
        // The schema's validation and the drafts came before: the checks get a turn of their own.
        await work.turn();
        const ruleProblemsOf = drafts.flatMap((draft, index) => (draft === undefined ? [] : draft.ruleProblems.map((problem) => ({ ...problem, index }))));
        const problems = [...shapeProblems, ...ruleProblemsOf, ...(await bulkProductProblems(repos, storeId, drafts))];
        if (problems.length > 0) throw validationFailed(problems, items.length);
        await work.turn();
        const createdAt = isoTimestamp(this.clock);
        const created: Product[] = [];
        // History records go in appends of about HISTORY_PER_APPEND: a few statements each, not a few per product, and never hashing 11 000 at once.
        let records: HistoryRecord[] = [];
        for (const [index, draft] of drafts.entries()) {
          const inserted = await asBulkItem(index, items.length, insertProduct(repos, storeId, draft!, createdAt));
          created.push(inserted.product);
          records.push(...inserted.records);
          if (records.length >= HISTORY_PER_APPEND) {
            await repos.history.append(storeId, createdAt, origin, records);
            records = [];
            // The append (hashing and writing a few hundred entries) is a stretch of its own, not added to the rows'.
            await work.turn();
          }
          await work.step();
        }
        await repos.history.append(storeId, createdAt, origin, records);
        // The commit gets a turn of its own.
        await work.turn();
        return created;
      })
      .then(onNextTurn);
  }

  /**
   * Changes the fields sent. `variations` replaces the list, matched by SKU: a kept SKU keeps
   * its variation (id) and takes the new price and stock (and its quantity rule, when the item
   * sends one: left out, the rule stays), a new SKU is a new variation, a missing one is
   * deleted with its prices. `categoryIds` replaces the set. The product's own SKU may not
   * leave it (renamed, or set to null) while prices of it remain (409). The event carries the
   * product as it was (`previous`); the history records its own price, SKU, active flag or
   * quantity rule changed, and each variation created, deleted, or with a new price or rule.
   */
  update(storeId: number, origin: ChangeOrigin, id: number, patch: ProductUpdate): Promise<Product> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const current = await mustFind(repos, storeId, id);
      const sku = patch.sku !== undefined ? patch.sku : current.sku;
      const variations = patch.variations?.map(toVariationFields);
      const slots = [
        ...productSkuSlot(sku, patch.sku !== undefined ? 'sku' : undefined),
        ...(variations === undefined ? current.variations.map((variation) => ({ sku: variation.sku, field: undefined })) : variationSkuSlots(variations)),
      ];
      const rules = [...optionalRuleProblems(patch.quantityRule, 'quantityRule'), ...(variations === undefined ? [] : variationRuleProblems(variations))];
      await checkCatalogRules(repos, storeId, slots, patch.categoryIds, id, rules);

      const changedAt = isoTimestamp(this.clock);
      const reshaped = sku !== current.sku || variations !== undefined;
      const held = new Map(skuEntries(id, current.sku, current.variations).map((holder) => [holder.sku, holder.variationId]));
      if (reshaped) await releaseLeavingSkus(repos, storeId, origin, current, held, new Set(slots.map((slot) => slot.sku)), sku, changedAt);
      const records: HistoryRecord[] = [];
      const own = ownFields(patch);
      if (Object.keys(own).length > 0 && !(await repos.products.update(storeId, id, own))) throw notFound(`Product ${id}`);
      if (reshaped) {
        // A kept variation whose item leaves its quantity rule out keeps the rule it has.
        const keepRule = new Set((patch.variations ?? []).filter((item) => item.quantityRule === undefined).map((item) => item.sku));
        const now =
          variations === undefined ? current.variations : await this.replaceVariations(repos, storeId, current, variations, keepRule, changedAt, records);
        const entries = skuEntries(id, sku, now);
        // A SKU the product held moves to its new variation; the others are new to the product.
        for (const entry of entries) {
          if (held.has(entry.sku) && entry.variationId !== null && held.get(entry.sku) !== entry.variationId)
            await repos.skus.reassign(storeId, id, entry.sku, entry.variationId);
        }
        await claimSkus(
          repos,
          storeId,
          entries.filter((entry) => !held.has(entry.sku)),
          slots,
        );
      }
      if (patch.categoryIds !== undefined) await repos.products.replaceCategories(storeId, id, patch.categoryIds);
      const product = await mustFind(repos, storeId, id);
      await repos.events.append([updateEventOf(storeId, 'product.updated', current, product)], changedAt);
      if (productPricingChanged(current, product)) records.push(productRecord(current, product));
      await repos.history.append(storeId, changedAt, origin, records);
      return product;
    });
  }

  /**
   * Deletes the product with its variations, SKUs, category links, trade prices and price list
   * entries, in one transaction; each deletion is an event, the prices' first. The prices go in
   * batches. The history records the prices', the variations' and the product's deletion.
   */
  remove(storeId: number, origin: ChangeOrigin, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const product = await mustFind(repos, storeId, id);
      const variations = await variationsOf(repos, storeId, product);
      const deletedAt = isoTimestamp(this.clock);
      await deletePricesOf(repos, storeId, origin, { productId: id }, deletedAt);
      if (!(await repos.products.delete(storeId, id))) throw notFound(`Product ${id}`);
      await repos.events.append([eventOf(storeId, 'product.deleted', product)], deletedAt);
      await repos.history.append(storeId, deletedAt, origin, [
        ...variations.map((variation) => variationRecord(variation, null)),
        productRecord(product, null),
      ]);
    });
  }

  /** The product's variations made `desired` (matched by SKU); the history records of the changes go to `records`. */
  private async replaceVariations(
    repos: Repositories,
    storeId: number,
    current: Product,
    desired: readonly VariationFields[],
    keepRule: ReadonlySet<string>,
    changedAt: string,
    records: HistoryRecord[],
  ): Promise<ProductVariation[]> {
    const existing = new Map((await variationsOf(repos, storeId, current)).map((variation) => [variation.sku, variation]));
    const keptSkus = new Set(desired.map((variation) => variation.sku));
    const removed = [...existing.values()].filter((variation) => !keptSkus.has(variation.sku));
    if (removed.length > 0) {
      await repos.variations.deleteMany(
        storeId,
        current.id,
        removed.map((variation) => variation.id),
      );
      for (const variation of removed) records.push(variationRecord(variation, null));
    }
    const kept: ProductVariation[] = [];
    for (const sent of desired) {
      const before = existing.get(sent.sku);
      if (before === undefined) continue;
      const wanted = keepRule.has(sent.sku) ? { ...sent, quantityRule: before.quantityRule } : sent;
      if (before.price !== wanted.price || before.stock !== wanted.stock || !sameRule(before.quantityRule, wanted.quantityRule)) {
        await repos.variations.update(storeId, current.id, before.id, { price: wanted.price, stock: wanted.stock, quantityRule: wanted.quantityRule });
        const after = { ...before, price: wanted.price, stock: wanted.stock, quantityRule: wanted.quantityRule };
        if (variationPricingChanged(before, after)) records.push(variationRecord(before, after));
      }
      kept.push({ id: before.id, sku: before.sku, price: wanted.price, stock: wanted.stock, quantityRule: wanted.quantityRule });
    }
    const added = await repos.variations.insertMany(
      storeId,
      current.id,
      desired.filter((variation) => !existing.has(variation.sku)),
      changedAt,
    );
    for (const variation of added) records.push(variationRecord(null, variation));
    return [...kept, ...added.map(({ id, sku, price, stock, quantityRule }) => ({ id, sku, price, stock, quantityRule }))];
  }
}

/**
 * Frees the SKUs the product gives up (`held` before the write, absent from `kept` after it),
 * releasing them first so that no price of them can be written meanwhile: its own SKU only
 * while nothing prices it (else 409), a dropped variation's with its prices. A SKU moving from
 * a dropped variation to the product itself stays registered, now to the product.
 */
async function releaseLeavingSkus(
  repos: Repositories,
  storeId: number,
  origin: ChangeOrigin,
  current: Product,
  held: ReadonlyMap<string, number | null>,
  kept: ReadonlySet<string>,
  ownSku: string | null,
  deletedAt: string,
): Promise<void> {
  const leaving = [...held.keys()].filter((sku) => !kept.has(sku));
  await repos.skus.release(storeId, current.id, leaving);
  if (current.sku !== null && leaving.includes(current.sku))
    await refuseWhilePriced(repos, storeId, current.id, current.sku, ownSku === null ? 'removing' : 'renaming');
  for (const sku of leaving) {
    if (sku !== current.sku) await deletePricesOf(repos, storeId, origin, { productId: current.id, sku }, deletedAt);
  }
  const ownSkuHolder = ownSku === null ? undefined : held.get(ownSku);
  if (ownSku !== null && typeof ownSkuHolder === 'number') await repos.skus.reassign(storeId, current.id, ownSku, null);
}

/** The product's variations as the API shows each on its own (with `productId` and `createdAt`): what the history records. */
async function variationsOf(repos: Repositories, storeId: number, product: Product): Promise<Variation[]> {
  if (product.variations.length === 0) return [];
  // Read in the writer's transaction, which holds the store's history lock: every writer of
  // variations takes it first, so none was added since `product` was read and one page holds them all.
  return repos.variations.list(storeId, product.id, { count: product.variations.length, offset: 0 });
}

async function mustFind(repos: Repositories, storeId: number, id: number): Promise<Product> {
  return found(await repos.products.find(storeId, id), `Product ${id}`);
}

/** Every problem of the write's SKUs and categories, reported together in one 422. */
async function checkCatalogRules(
  repos: Repositories,
  storeId: number,
  slots: readonly SkuSlot[],
  categoryIds: readonly number[] | undefined,
  ownProductId?: number,
  ruleProblemsFound: readonly FieldProblem[] = [],
): Promise<void> {
  const problems: FieldProblem[] = [...ruleProblemsFound, ...duplicateSkuProblems(slots), ...(await skusInUseProblems(repos, storeId, slots, ownProductId))];
  if (categoryIds !== undefined && categoryIds.length > 0) {
    const existing = new Set(await repos.categories.existing(storeId, categoryIds));
    for (const categoryId of categoryIds) {
      if (!existing.has(categoryId)) problems.push({ field: 'categoryIds', message: `Category ${categoryId} does not exist in this store` });
    }
  }
  if (problems.length > 0) throw validationFailed(problems);
}

function productSkuSlot(sku: string | null, field: string | undefined): SkuSlot[] {
  return sku === null ? [] : [{ sku, field }];
}

function variationSkuSlots(variations: readonly VariationFields[]): SkuSlot[] {
  return variations.map((variation, index) => ({ sku: variation.sku, field: `variations[${index}].sku` }));
}

function skuEntries(productId: number, sku: string | null, variations: readonly ProductVariation[]): SkuHolder[] {
  return [
    ...(sku === null ? [] : [{ sku, productId, variationId: null }]),
    ...variations.map((variation) => ({ sku: variation.sku, productId, variationId: variation.id })),
  ];
}

/** A variation item describes the whole variation: an omitted price, stock or quantity rule is null. */
function toVariationFields(input: VariationInput): VariationFields {
  return { sku: input.sku, price: input.price ?? null, stock: input.stock ?? null, quantityRule: ruleOfInput(input.quantityRule) };
}

/** The problems of a quantity rule sent at `field` (none when it was not sent, or sent as null). */
function optionalRuleProblems(input: QuantityRuleInput | null | undefined, field: string): FieldProblem[] {
  const rule = ruleOfInput(input);
  return rule === null ? [] : ruleProblems(rule, field);
}

function variationRuleProblems(variations: readonly VariationFields[]): FieldProblem[] {
  return variations.flatMap((variation, index) =>
    variation.quantityRule === null ? [] : ruleProblems(variation.quantityRule, `variations[${index}].quantityRule`),
  );
}

function ownFields(patch: ProductUpdate): Partial<ProductFields> {
  return {
    ...(patch.title !== undefined && { title: patch.title }),
    ...(patch.sku !== undefined && { sku: patch.sku }),
    ...(patch.price !== undefined && { price: patch.price }),
    ...(patch.active !== undefined && { active: patch.active }),
    ...(patch.quantityRule !== undefined && { quantityRule: ruleOfInput(patch.quantityRule) }),
  };
}

/** A product to create, every field decided, with the SKUs it will hold and the fields naming them. */
interface ProductDraft {
  fields: ProductFields;
  variations: VariationFields[];
  categoryIds: number[];
  slots: SkuSlot[];
  /** What is wrong with its quantity rules (the product's, its variations'). */
  ruleProblems: FieldProblem[];
}

function productDraft(input: ProductInput): ProductDraft {
  const quantityRule = ruleOfInput(input.quantityRule);
  const fields: ProductFields = { title: input.title, sku: input.sku ?? null, price: input.price, active: input.active ?? true, quantityRule };
  const variations = (input.variations ?? []).map(toVariationFields);
  return {
    fields,
    variations,
    categoryIds: input.categoryIds ?? [],
    slots: [...productSkuSlot(fields.sku, 'sku'), ...variationSkuSlots(variations)],
    ruleProblems: [...optionalRuleProblems(input.quantityRule, 'quantityRule'), ...variationRuleProblems(variations)],
  };
}

/**
 * The writes of one checked product, in the caller's transaction: the product, its variations,
 * its SKUs (a SKU a concurrent writer claimed first is a 422), its categories, its event; and
 * the history records of the product's and each variation's creation, for the caller to append.
 */
async function insertProduct(
  repos: Repositories,
  storeId: number,
  draft: ProductDraft,
  createdAt: string,
): Promise<{ product: Product; records: HistoryRecord[] }> {
  const id = await repos.products.insert(storeId, draft.fields, createdAt);
  const created = await repos.variations.insertMany(storeId, id, draft.variations, createdAt);
  await claimSkus(repos, storeId, skuEntries(id, draft.fields.sku, created), draft.slots);
  await repos.products.replaceCategories(storeId, id, draft.categoryIds);
  const product = await mustFind(repos, storeId, id);
  await repos.events.append([eventOf(storeId, 'product.created', product)], createdAt);
  return { product, records: [productRecord(null, product), ...created.map((variation) => variationRecord(null, variation))] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
