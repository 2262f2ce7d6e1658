import type { Caller, CreateOptions } from './api-caller.js';
import { type IterateQuery, offsetPages } from './pages.js';
import { RecordsResource } from './records-resource.js';
import type {
  CountResult,
  Customer,
  CustomerInput,
  FieldsOptions,
  Product,
  ProductInput,
  Variation,
  VariationInput,
  VariationListQuery,
  VariationUpdate,
} from './types.js';

/** `/v1/customers`. With `fields`, each object carries only those fields; `delete` also deletes the customer's trade prices. */
export class CustomersResource extends RecordsResource<'customers'> {
  constructor(api: Caller) {
    super(api, 'customers');
  }

  /** 1–1000 customers in one request, all or none; a 422's `errors[].index` are positions in `customers`. */
  createMany(customers: readonly CustomerInput[], options: CreateOptions = {}): Promise<Customer[]> {
    return this.api.call('customers.createMany', { body: customers, ...options });
  }
}

/** `/v1/products`; `list({ sku })` finds the product owning a SKU (its own or a variation's); `delete` also deletes the product's trade prices and price list entries. */
export class ProductsResource extends RecordsResource<'products'> {
  constructor(api: Caller) {
    super(api, 'products');
  }

  /** 1–1000 products with their variations (10 000 in all) in one request, all or none; a 422's `errors[].index` are positions in `products`. */
  createMany(products: readonly ProductInput[], options: CreateOptions = {}): Promise<Product[]> {
    return this.api.call('products.createMany', { body: products, ...options });
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
