import type { FastifyRequest } from 'fastify';
import type { Customer } from '../../../contract/customers.js';
import type { Product } from '../../../contract/products.js';
import type { TradePrice } from '../../../contract/trade-prices.js';
import { embeds } from '../../app-types.js';

/** Loads several records of a kind by id, for one store; missing ids are simply absent. */
export type FindMany<T extends { id: number }> = (storeId: number, ids: readonly number[]) => Promise<T[]>;

/** `embed=customer,product`: one query per embedded kind for the whole page. */
export class TradePriceEmbedder {
  constructor(
    private readonly findCustomers: FindMany<Customer>,
    private readonly findProducts: FindMany<Product>,
  ) {}

  async embed(request: FastifyRequest, storeId: number, records: TradePrice[]): Promise<Array<TradePrice & { customer?: Customer; product?: Product }>> {
    const withCustomer = embeds(request, 'customer');
    const withProduct = embeds(request, 'product');
    if (!withCustomer && !withProduct) return records;
    const [customers, products] = await Promise.all([
      withCustomer ? this.findCustomers(storeId, distinct(records.map((record) => record.customerId))) : [],
      withProduct ? this.findProducts(storeId, distinct(records.map((record) => record.productId))) : [],
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
