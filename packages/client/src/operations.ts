export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Every operation of the API the client calls, by the name of its client method, with the
 * method and path template as the OpenAPI document (`/openapi.json`) writes them. The one
 * place a path is spelled: the resources call operations by name, and a test checks this table
 * against the server's document both ways.
 */
export const OPERATIONS = {
  'customers.list': { method: 'GET', path: '/v1/customers' },
  'customers.count': { method: 'GET', path: '/v1/customers/count' },
  'customers.get': { method: 'GET', path: '/v1/customers/{id}' },
  'customers.create': { method: 'POST', path: '/v1/customers' },
  'customers.createMany': { method: 'POST', path: '/v1/customers/bulk' },
  'customers.update': { method: 'PUT', path: '/v1/customers/{id}' },
  'customers.delete': { method: 'DELETE', path: '/v1/customers/{id}' },

  'products.list': { method: 'GET', path: '/v1/products' },
  'products.count': { method: 'GET', path: '/v1/products/count' },
  'products.get': { method: 'GET', path: '/v1/products/{id}' },
  'products.create': { method: 'POST', path: '/v1/products' },
  'products.createMany': { method: 'POST', path: '/v1/products/bulk' },

  'skus.lookup': { method: 'POST', path: '/v1/skus/lookup' },
  'skus.search': { method: 'GET', path: '/v1/skus' },
  'products.update': { method: 'PUT', path: '/v1/products/{id}' },
  'products.delete': { method: 'DELETE', path: '/v1/products/{id}' },

  'variations.list': { method: 'GET', path: '/v1/products/{id}/variations' },
  'variations.count': { method: 'GET', path: '/v1/products/{id}/variations/count' },
  'variations.get': { method: 'GET', path: '/v1/products/{id}/variations/{variationId}' },
  'variations.create': { method: 'POST', path: '/v1/products/{id}/variations' },
  'variations.update': { method: 'PUT', path: '/v1/products/{id}/variations/{variationId}' },
  'variations.delete': { method: 'DELETE', path: '/v1/products/{id}/variations/{variationId}' },

  'categories.list': { method: 'GET', path: '/v1/categories' },
  'categories.count': { method: 'GET', path: '/v1/categories/count' },
  'categories.get': { method: 'GET', path: '/v1/categories/{id}' },
  'categories.create': { method: 'POST', path: '/v1/categories' },
  'categories.update': { method: 'PUT', path: '/v1/categories/{id}' },
  'categories.delete': { method: 'DELETE', path: '/v1/categories/{id}' },

  'tradePrices.list': { method: 'GET', path: '/v1/trade-customer-product-prices' },
  'tradePrices.count': { method: 'GET', path: '/v1/trade-customer-product-prices/count' },
  'tradePrices.get': { method: 'GET', path: '/v1/trade-customer-product-prices/{id}' },
  'tradePrices.delete': { method: 'DELETE', path: '/v1/trade-customer-product-prices/{id}' },
  'tradePrices.bulkCreate': { method: 'POST', path: '/v1/trade-customer-product-prices/bulk' },
  'tradePrices.replace': { method: 'POST', path: '/v1/trade-customer-product-prices/replace' },
  'tradePrices.effective': { method: 'GET', path: '/v1/trade-customer-product-prices/effective' },

  'customerGroups.list': { method: 'GET', path: '/v1/customer-groups' },
  'customerGroups.count': { method: 'GET', path: '/v1/customer-groups/count' },
  'customerGroups.get': { method: 'GET', path: '/v1/customer-groups/{id}' },
  'customerGroups.create': { method: 'POST', path: '/v1/customer-groups' },
  'customerGroups.update': { method: 'PUT', path: '/v1/customer-groups/{id}' },
  'customerGroups.delete': { method: 'DELETE', path: '/v1/customer-groups/{id}' },
  'priceLists.list': { method: 'GET', path: '/v1/price-lists' },
  'priceLists.count': { method: 'GET', path: '/v1/price-lists/count' },
  'priceLists.get': { method: 'GET', path: '/v1/price-lists/{id}' },
  'priceLists.create': { method: 'POST', path: '/v1/price-lists' },
  'priceLists.update': { method: 'PUT', path: '/v1/price-lists/{id}' },
  'priceLists.delete': { method: 'DELETE', path: '/v1/price-lists/{id}' },
  'priceLists.prices.list': { method: 'GET', path: '/v1/price-lists/{id}/prices' },
  'priceLists.prices.count': { method: 'GET', path: '/v1/price-lists/{id}/prices/count' },
  'priceLists.prices.get': { method: 'GET', path: '/v1/price-lists/{id}/prices/{priceId}' },
  'priceLists.prices.bulkCreate': { method: 'POST', path: '/v1/price-lists/{id}/prices/bulk' },
  'priceLists.prices.delete': { method: 'DELETE', path: '/v1/price-lists/{id}/prices/{priceId}' },
  'priceLists.prices.replace': { method: 'POST', path: '/v1/price-lists/{id}/prices/replace' },
  'priceLists.prices.import': { method: 'POST', path: '/v1/price-lists/{id}/prices/import' },
  'priceLists.overlaps': { method: 'GET', path: '/v1/price-lists/{id}/overlaps' },

  'changeSets.list': { method: 'GET', path: '/v1/change-sets' },
  'changeSets.count': { method: 'GET', path: '/v1/change-sets/count' },
  'changeSets.get': { method: 'GET', path: '/v1/change-sets/{id}' },
  'changeSets.create': { method: 'POST', path: '/v1/change-sets' },
  'changeSets.operations': { method: 'GET', path: '/v1/change-sets/{id}/operations' },
  'changeSets.addOperations': { method: 'POST', path: '/v1/change-sets/{id}/operations' },
  'changeSets.preview': { method: 'GET', path: '/v1/change-sets/{id}/preview' },
  'changeSets.submit': { method: 'POST', path: '/v1/change-sets/{id}/submit' },
  'changeSets.approve': { method: 'POST', path: '/v1/change-sets/{id}/approve' },
  'changeSets.apply': { method: 'POST', path: '/v1/change-sets/{id}/apply' },
  'changeSets.discard': { method: 'POST', path: '/v1/change-sets/{id}/discard' },
  'changeSets.revert': { method: 'POST', path: '/v1/change-sets/{id}/revert' },

  'quotes.create': { method: 'POST', path: '/v1/quotes' },

  'orders.list': { method: 'GET', path: '/v1/orders' },
  'orders.count': { method: 'GET', path: '/v1/orders/count' },
  'orders.get': { method: 'GET', path: '/v1/orders/{id}' },
  'orders.create': { method: 'POST', path: '/v1/orders' },

  'webhooks.list': { method: 'GET', path: '/v1/webhooks' },
  'webhooks.count': { method: 'GET', path: '/v1/webhooks/count' },
  'webhooks.get': { method: 'GET', path: '/v1/webhooks/{id}' },
  'webhooks.deliveries': { method: 'GET', path: '/v1/webhooks/{id}/deliveries' },
  'webhooks.create': { method: 'POST', path: '/v1/webhooks' },
  'webhooks.update': { method: 'PUT', path: '/v1/webhooks/{id}' },
  'webhooks.delete': { method: 'DELETE', path: '/v1/webhooks/{id}' },
  'webhooks.verify': { method: 'POST', path: '/v1/webhooks/{id}/verify' },

  'events.list': { method: 'GET', path: '/v1/events' },

  'priceHistory.list': { method: 'GET', path: '/v1/price-history' },
  'priceHistory.count': { method: 'GET', path: '/v1/price-history/count' },

  'imports.list': { method: 'GET', path: '/v1/imports' },
  'imports.count': { method: 'GET', path: '/v1/imports/count' },
  'imports.get': { method: 'GET', path: '/v1/imports/{id}' },
  'imports.changes': { method: 'GET', path: '/v1/imports/{id}/changes' },
  'imports.create': { method: 'POST', path: '/v1/imports' },

  'store.get': { method: 'GET', path: '/v1/store' },
  'session.create': { method: 'POST', path: '/v1/session' },
  'session.get': { method: 'GET', path: '/v1/session' },
  'session.delete': { method: 'DELETE', path: '/v1/session' },
  'session.changePassword': { method: 'POST', path: '/v1/session/password' },
} as const satisfies Record<string, { method: HttpMethod; path: string }>;

export type OperationName = keyof typeof OPERATIONS;

/** Path parameters: `{id}`, `{variationId}`, `{priceId}`. */
export type PathParams = Readonly<Record<string, number>>;

/** The operation's path with its parameters filled in: `/v1/customers/{id}` → `/v1/customers/12`. */
export function operationPath(operation: OperationName, params: PathParams = {}): string {
  return OPERATIONS[operation].path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${operation}: the path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** A query string from an options object: undefined values left out, `?` included when not empty. */
export function queryString(query: object | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    search.append(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
