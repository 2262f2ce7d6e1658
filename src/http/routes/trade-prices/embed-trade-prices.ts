import type { FastifyRequest } from 'fastify';
import type { Customer } from '../../../contract/customers.js';
import type { Product } from '../../../contract/products.js';
import type { TradePrice } from '../../../contract/trade-prices.js';
import type { ProductService } from '../../../modules/catalog/product-service.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { embeds } from '../../plugins/app-types.js';

/** The services `embed=` reads through: each finds several records of one store by id. */
export interface EmbedSources {
  customers: Pick<CustomerService, 'findMany'>;
  products: Pick<ProductService, 'findMany'>;
}

/** `embed=customer,product`: one query per embedded kind for the whole page. */
export class TradePriceEmbedder {
  constructor(private readonly sources: EmbedSources) {}

  async embed(request: FastifyRequest, storeId: number, records: TradePrice[]): Promise<Array<TradePrice & { customer?: Customer; product?: Product }>> {
    const withCustomer = embeds(request, 'customer');
    const withProduct = embeds(request, 'product');
    if (!withCustomer && !withProduct) return records;
    const [customers, products] = await Promise.all([
      withCustomer ? this.sources.customers.findMany(storeId, distinct(records.map((record) => record.customerId))) : [],
      withProduct ? this.sources.products.findMany(storeId, distinct(records.map((record) => record.productId))) : [],
    ]);
    const customerById = new Map(customers.map((customer) => [customer.id, customer]));
    const productById = new Map(products.map((product) => [product.id, product]));
    return records.map((record) => ({
      ...record,
      ...(withCustomer && { customer: customerById.get(record.customerId) }),
      ...(withProduct && { product: productById.get(record.productId) }),
    }));
  }
}

function distinct(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}
