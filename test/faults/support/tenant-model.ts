import fc from 'fast-check';

/**
 * A simple model of what two stores hold, for the tenant isolation test: what each operation
 * should answer, given the records each store has, whichever store's ids it is called with.
 */
export type Kind = 'customers' | 'products' | 'categories' | 'prices' | 'orders';
export const KINDS: readonly Kind[] = ['customers', 'products', 'categories', 'prices', 'orders'];

export const PATHS: Record<Kind, string> = {
  customers: '/v1/customers',
  products: '/v1/products',
  categories: '/v1/categories',
  prices: '/v1/trade-customer-product-prices',
  orders: '/v1/orders',
};

/** Each record as the test compares it: the fields the model knows. */
export interface StoreModel {
  customers: Map<number, { id: number; email: string; trade: boolean }>;
  products: Map<number, { id: number; sku: string; price: number }>;
  categories: Map<number, { id: number; title: string }>;
  prices: Map<number, { id: number; customerId: number; productId: number; sku: string; price: number }>;
  orders: Map<number, { id: number; customerId: number; total: number }>;
}

export function emptyStore(): StoreModel {
  return { customers: new Map(), products: new Map(), categories: new Map(), prices: new Map(), orders: new Map() };
}

/** One step: which store's credential acts, on what, with which of all the ids either store ever had. */
export type Step =
  | { op: 'create'; store: 0 | 1; kind: 'customers'; trade: boolean }
  | { op: 'create'; store: 0 | 1; kind: 'products' | 'categories' }
  | { op: 'createMany'; store: 0 | 1; kind: 'customers' | 'products'; count: number }
  | { op: 'skus'; store: 0 | 1; picks: number[] }
  | { op: 'bulk'; store: 0 | 1; items: Array<{ customer: number; product: number; units: number }> }
  | { op: 'order'; store: 0 | 1; customer: number; product: number; quantity: number }
  | { op: 'get' | 'delete'; store: 0 | 1; kind: Kind; pick: number }
  | { op: 'trade'; store: 0 | 1; pick: number; trade: boolean }
  | { op: 'list' | 'count'; store: 0 | 1; kind: Kind }
  | { op: 'pricesOf'; store: 0 | 1; customer: number }
  | { op: 'effective'; store: 0 | 1; customer: number; product: number }
  | { op: 'history'; store: 0 | 1; customer: number };

const store = fc.constantFrom<0 | 1>(0, 1);
const kind = fc.constantFrom(...KINDS);
/** An index into the ids known so far (modulo their number). */
const pick = fc.nat(1000);

export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('create' as const), store, kind: fc.constant('customers' as const), trade: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('create' as const), store, kind: fc.constantFrom('products' as const, 'categories' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('createMany' as const),
      store,
      kind: fc.constantFrom('customers' as const, 'products' as const),
      count: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('skus' as const), store, picks: fc.array(pick, { minLength: 1, maxLength: 4 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('bulk' as const),
      store,
      items: fc.array(fc.record({ customer: pick, product: pick, units: fc.integer({ min: 0, max: 1_000_000 }) }), { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('order' as const), store, customer: pick, product: pick, quantity: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constantFrom('get' as const, 'delete' as const), store, kind, pick }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('trade' as const), store, pick, trade: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constantFrom('list' as const, 'count' as const), store, kind }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('pricesOf' as const), store, customer: pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('effective' as const), store, customer: pick, product: pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('history' as const), store, customer: pick }) },
);

/** The model's kind of a price history entry's `resource` (the ones these sequences change). */
export const HISTORY_KINDS: Record<string, Kind> = { customer: 'customers', product: 'products', trade_price: 'prices' };

/**
 * Every sequence starts with this: each store gets a trade customer, a product and a trade
 * price, so the other store's records (prices included) are there from the first random step.
 * Without it few random sequences ever made a trade price at all (about 1 in 15), and fewer
 * still one in each store.
 */
export const PROLOGUE: readonly Step[] = [
  { op: 'create', store: 0, kind: 'customers', trade: true },
  { op: 'create', store: 1, kind: 'customers', trade: true },
  { op: 'create', store: 0, kind: 'products' },
  { op: 'create', store: 1, kind: 'products' },
  // Indexes into the ids known so far: store 0 made the first customer and product, store 1 the second.
  { op: 'bulk', store: 0, items: [{ customer: 0, product: 0, units: 12_500 }] },
  { op: 'bulk', store: 1, items: [{ customer: 1, product: 1, units: 13_500 }] },
];

/** A store's effective price of a SKU for a customer: its newest trade price while the customer is a trade customer, else the product's. */
export function effectivePrice(model: StoreModel, customerId: number, productId: number): { price: number; tradePriceId: number | null } {
  const customer = model.customers.get(customerId)!;
  const product = model.products.get(productId)!;
  const trade = [...model.prices.values()].filter((price) => price.customerId === customerId && price.sku === product.sku).sort((a, b) => b.id - a.id)[0];
  return customer.trade && trade !== undefined ? { price: trade.price, tradePriceId: trade.id } : { price: product.price, tradePriceId: null };
}

/** The records of a kind, as a list answers them (ordered by id). */
export function listOf(model: StoreModel, kind: Kind): unknown[] {
  return [...model[kind].values()].sort((a, b) => a.id - b.id);
}

/** A record as the model sees it: only the fields the model keeps. */
export function project(kind: Kind, record: Record<string, unknown>): unknown {
  const keep: Record<Kind, string[]> = {
    customers: ['id', 'email', 'trade'],
    products: ['id', 'sku', 'price'],
    categories: ['id', 'title'],
    prices: ['id', 'customerId', 'productId', 'sku', 'price'],
    orders: ['id', 'customerId', 'total'],
  };
  return Object.fromEntries(keep[kind].map((field) => [field, record[field]]));
}
