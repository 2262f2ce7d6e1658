import type { Caller, CreateOptions } from './api-caller.js';
import { type IterateQuery, offsetPages } from './pages.js';
import type {
  Category,
  CategoryGetQuery,
  CategoryInput,
  CategoryListQuery,
  CategoryUpdate,
  CountResult,
  Customer,
  CustomerCountQuery,
  CustomerInput,
  CustomerListQuery,
  CustomerUpdate,
  FieldsOptions,
  Product,
  ProductCountQuery,
  ProductInput,
  ProductListQuery,
  ProductUpdate,
  Variation,
  VariationInput,
  VariationListQuery,
  VariationUpdate,
} from './types.js';

/** `/v1/customers`. With `fields`, each object carries only those fields. */
export class CustomersResource {
  constructor(private readonly api: Caller) {}

  list(query: CustomerListQuery = {}): Promise<Customer[]> {
    return this.api.call('customers.list', { query });
  }
  iterate(query: IterateQuery<CustomerListQuery> = {}): AsyncGenerator<Customer, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: CustomerCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('customers.count', { query })).count;
  }
  get(id: number, query: FieldsOptions = {}): Promise<Customer> {
    return this.api.call('customers.get', { params: { id }, query });
  }
  create(customer: CustomerInput, options: CreateOptions = {}): Promise<Customer> {
    return this.api.call('customers.create', { body: customer, ...options });
  }
  /** 1–1000 customers in one request, all or none; a 422's `errors[].index` are positions in `customers`. */
  createMany(customers: readonly CustomerInput[], options: CreateOptions = {}): Promise<Customer[]> {
    return this.api.call('customers.createMany', { body: customers, ...options });
  }
  update(id: number, changes: CustomerUpdate): Promise<Customer> {
    return this.api.call('customers.update', { params: { id }, body: changes });
  }
  /** Also deletes the customer's trade prices. */
  async delete(id: number): Promise<void> {
    await this.api.call('customers.delete', { params: { id } });
  }
}

/** `/v1/products`; `list({ sku })` finds the product owning a SKU (its own or a variation's). */
export class ProductsResource {
  constructor(private readonly api: Caller) {}

  list(query: ProductListQuery = {}): Promise<Product[]> {
    return this.api.call('products.list', { query });
  }
  iterate(query: IterateQuery<ProductListQuery> = {}): AsyncGenerator<Product, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: ProductCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('products.count', { query })).count;
  }
  get(id: number, query: FieldsOptions = {}): Promise<Product> {
    return this.api.call('products.get', { params: { id }, query });
  }
  create(product: ProductInput, options: CreateOptions = {}): Promise<Product> {
    return this.api.call('products.create', { body: product, ...options });
  }
  /** 1–1000 products with their variations (10 000 in all) in one request, all or none; a 422's `errors[].index` are positions in `products`. */
  createMany(products: readonly ProductInput[], options: CreateOptions = {}): Promise<Product[]> {
    return this.api.call('products.createMany', { body: products, ...options });
  }
  update(id: number, changes: ProductUpdate): Promise<Product> {
    return this.api.call('products.update', { params: { id }, body: changes });
  }
  /** Also deletes the product's trade prices and price list entries. */
  async delete(id: number): Promise<void> {
    await this.api.call('products.delete', { params: { id } });
  }
}

/** `/v1/products/{id}/variations`: every method takes the product's id first. */
export class VariationsResource {
  constructor(private readonly api: Caller) {}

  list(productId: number, query: VariationListQuery = {}): Promise<Variation[]> {
    return this.api.call('variations.list', { params: { id: productId }, query });
  }
  iterate(productId: number, query: IterateQuery<VariationListQuery> = {}): AsyncGenerator<Variation, void, undefined> {
    return offsetPages((page) => this.list(productId, { ...query, ...page }));
  }
  async count(productId: number): Promise<number> {
    return (await this.api.call<CountResult>('variations.count', { params: { id: productId } })).count;
  }
  get(productId: number, variationId: number, query: FieldsOptions = {}): Promise<Variation> {
    return this.api.call('variations.get', { params: { id: productId, variationId }, query });
  }
  create(productId: number, variation: VariationInput, options: CreateOptions = {}): Promise<Variation> {
    return this.api.call('variations.create', { params: { id: productId }, body: variation, ...options });
  }
  update(productId: number, variationId: number, changes: VariationUpdate): Promise<Variation> {
    return this.api.call('variations.update', { params: { id: productId, variationId }, body: changes });
  }
  async delete(productId: number, variationId: number): Promise<void> {
    await this.api.call('variations.delete', { params: { id: productId, variationId } });
  }
}

/** `/v1/categories`; `embed: 'parents'` adds each category's ancestors. */
export class CategoriesResource {
  constructor(private readonly api: Caller) {}

  list(query: CategoryListQuery = {}): Promise<Category[]> {
    return this.api.call('categories.list', { query });
  }
  iterate(query: IterateQuery<CategoryListQuery> = {}): AsyncGenerator<Category, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(): Promise<number> {
    return (await this.api.call<CountResult>('categories.count')).count;
  }
  get(id: number, query: CategoryGetQuery = {}): Promise<Category> {
    return this.api.call('categories.get', { params: { id }, query });
  }
  create(category: CategoryInput, options: CreateOptions = {}): Promise<Category> {
    return this.api.call('categories.create', { body: category, ...options });
  }
  update(id: number, changes: CategoryUpdate): Promise<Category> {
    return this.api.call('categories.update', { params: { id }, body: changes });
  }
  async delete(id: number): Promise<void> {
    await this.api.call('categories.delete', { params: { id } });
  }
}
