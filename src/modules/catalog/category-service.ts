import type { Category, CategoryInput, CategoryUpdate, ParentCategory } from '../../contract/categories.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { type AppError, found, invalidField } from '../shared/errors.js';
import type { Page } from '../shared/page.js';
import { eventOf, eventsOf } from '../events/events.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { longWork } from '../shared/long-work.js';

/** Linked products read (and announced) per page when a category is deleted. */
const LINKED_PAGE = 500;

export interface CategoryEmbeds {
  /** Add `parents`: the ancestors, root first. */
  parents: boolean;
}

export class CategoryService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async list(storeId: number, page: Page, embeds: CategoryEmbeds): Promise<Category[]> {
    const categories = await this.uow.repos.categories.list(storeId, {}, page);
    return embeds.parents ? withParents(this.uow.repos, storeId, categories) : categories;
  }

  count(storeId: number): Promise<number> {
    return this.uow.repos.categories.count(storeId, {});
  }

  async get(storeId: number, id: number, embeds: CategoryEmbeds): Promise<Category> {
    const category = await mustFind(this.uow.repos, storeId, id);
    return embeds.parents ? ((await withParents(this.uow.repos, storeId, [category]))[0] ?? category) : category;
  }

  create(storeId: number, input: CategoryInput): Promise<Category> {
    const parentId = input.parentId ?? null;
    return this.uow.transaction(async (repos) => {
      if (parentId !== null) {
        await repos.categories.lockTree(storeId);
        await parentMustExist(repos, storeId, parentId);
      }
      const createdAt = isoTimestamp(this.clock);
      const created = await repos.categories.insert(storeId, { title: input.title, parentId }, createdAt);
      await repos.events.append([eventOf(storeId, 'category.created', created)], createdAt);
      return created;
    });
  }

  /** A new parent must exist and must be neither the category itself nor one of its descendants. */
  update(storeId: number, id: number, patch: CategoryUpdate): Promise<Category> {
    const parentId = patch.parentId;
    return this.uow.transaction(async (repos) => {
      if (parentId !== undefined && parentId !== null) await repos.categories.lockTree(storeId);
      await mustFind(repos, storeId, id);
      if (parentId !== undefined && parentId !== null) {
        const lineage = (await repos.categories.withAncestors(storeId, [parentId])).map((category) => category.id);
        if (!lineage.includes(parentId)) throw missingParent(parentId);
        if (lineage.includes(id))
          throw invalidField('parentId', `Category ${parentId} is this category or one of its subcategories, so it cannot be its parent`);
      }
      const updated = found(await repos.categories.update(storeId, id, patch), `Category ${id}`);
      await repos.events.append([eventOf(storeId, 'category.updated', updated)], isoTimestamp(this.clock));
      return updated;
    });
  }

  /**
   * Only a category without subcategories can go; its product links go with it, so each
   * linked product's `categoryIds` changes: a `product.updated` event for each, after the
   * `category.deleted` one. The linked products are read a page at a time.
   */
  remove(storeId: number, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.categories.lockTree(storeId);
      const category = await mustFind(repos, storeId, id);
      if (await repos.categories.hasChildren(storeId, id)) {
        throw invalidField(null, `Category ${id} has subcategories: delete them or move them to another parent first`);
      }
      const deletedAt = isoTimestamp(this.clock);
      await repos.events.append([eventOf(storeId, 'category.deleted', category)], deletedAt);
      // The links stay until every page is read, so the offsets do not shift.
      const work = longWork();
      for (let offset = 0; ; offset += LINKED_PAGE) {
        const linked = await repos.products.list(storeId, { categoryId: id }, { count: LINKED_PAGE, offset });
        const unlinked = linked.map((product) => ({ ...product, categoryIds: product.categoryIds.filter((categoryId) => categoryId !== id) }));
        await repos.events.append(eventsOf(storeId, 'product.updated', unlinked), deletedAt);
        if (linked.length < LINKED_PAGE) break;
        await work.rest();
      }
      await repos.categories.delete(storeId, id);
    });
  }
}

async function mustFind(repos: Repositories, storeId: number, id: number): Promise<Category> {
  return found(await repos.categories.find(storeId, id), `Category ${id}`);
}

async function parentMustExist(repos: Repositories, storeId: number, parentId: number): Promise<void> {
  const [existing] = await repos.categories.existing(storeId, [parentId]);
  if (existing === undefined) throw missingParent(parentId);
}

function missingParent(parentId: number): AppError {
  return invalidField('parentId', `Category ${parentId} does not exist in this store`);
}

/** Adds `parents` (root first) to each category, with one query for the whole list. */
async function withParents(repos: Repositories, storeId: number, categories: readonly Category[]): Promise<Category[]> {
  const parentIds = [...new Set(categories.flatMap((category) => (category.parentId === null ? [] : [category.parentId])))];
  const known = new Map<number, ParentCategory>();
  for (const ancestor of await repos.categories.withAncestors(storeId, parentIds)) known.set(ancestor.id, ancestor);
  return categories.map((category) => {
    const parents: ParentCategory[] = [];
    let parent = category.parentId === null ? undefined : known.get(category.parentId);
    // Moves are checked, so the tree has no cycles; the bound only guards against a broken one.
    while (parent !== undefined && parents.length < known.size) {
      parents.push(parent);
      parent = parent.parentId === null ? undefined : known.get(parent.parentId);
    }
    return { ...category, parents: parents.reverse() };
  });
}
